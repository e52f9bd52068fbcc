// Prompt and generated tokens grouped into display chips: consecutive tokens whose bytes only
// form complete UTF-8 characters together (a CJK character split over byte tokens) share one
// chip. Plain C++ over the run's tokens, so it is tested without widgets.
#pragma once

#include <QString>

#include <vector>

#include "ui/session/run_record.h"

namespace octo::ui {

struct TokenChip {
    int first = 0;      // token index
    int count = 1;      // tokens in the chip
    QString text;       // display text (token_display_text)
    bool generated = false;
    // A harmony answer (gpt-oss, mark_harmony_channels): the channel the chip's first byte
    // belongs to ("analysis", "final", …; empty otherwise), whether a new channel starts at this
    // chip, and whether it is part of a header or closing marker rather than of a message's text.
    QString channel;
    bool channel_start = false;
    bool marker = false;
};

// A token's bytes as shown on chips, axes and readouts: newline as ↵, tab as →, space as ·
// (never a blank), a token without bytes as ∅, invalid UTF-8 as the replacement character.
QString token_display_text(const std::string& bytes);

std::vector<TokenChip> make_chips(const std::vector<TraceToken>& tokens);

// Marks the generated chips of a harmony answer (its text holds "<|channel|>": engine/chat/
// harmony_channels.h) with their channels; other answers are left as they are.
void mark_harmony_channels(const std::vector<TraceToken>& tokens, std::vector<TokenChip>& chips);

// A step of a constrained run (Structured output) where the grammar removed at least this much
// probability: the constraint "bent" the model there, and the token stream marks it.
inline constexpr double kBentMass = ConstraintStep::kBentMass;
// The largest probability a grammar's mask removed at the chip's tokens (ConstraintStep), and the
// token where it did; removed_mass -1 when the run had no grammar.
struct ChipConstraint {
    double removed_mass = -1.0;
    int token = -1;
};
ChipConstraint chip_constraint(const std::vector<TraceToken>& tokens, const TokenChip& chip);

// The subsystem with the largest value of `metric` over the chip's tokens, or -1 when the
// metric was not computed for them.
int dominant_subsystem(const std::vector<TraceToken>& tokens, const TokenChip& chip, Metric metric);

} // namespace octo::ui
