// The messages of a harmony answer (gpt-oss; chat_template.h's Harmony family). The generation
// prompt ends with "<|start|>assistant" and the model writes each message as
//   "<|channel|>" channel [" <|constrain|>" …] "<|message|>" text, then "<|end|>" and
//   "<|start|>assistant" before the next message, or "<|return|>" / "<|call|>" to stop,
// e.g. "<|channel|>analysis<|message|>Think…<|end|><|start|>assistant<|channel|>final<|message|>Hi<|return|>".
// The analysis channel is the model's reasoning, final its answer to the user, commentary tool
// calls and preambles. Octoscope shows the channels apart (the workbench's token stream).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

struct HarmonyMessage {
    std::string channel;    // "analysis", "final", "commentary", … ("" when the header names none)
    size_t header_begin = 0; // where its "<|channel|>" (or "<|start|>") starts in the answer
    size_t text_begin = 0;   // its text: [text_begin, text_end)
    size_t text_end = 0;     // at its closing marker, or the answer's end while it is unfinished
    bool closed = false;     // a closing marker (<|end|>, <|return|>, <|call|>) follows the text
};

// The messages of `answer` in order; text before any header (a model that ignored the format)
// is a message of channel "". An answer cut inside a header has that header as an unfinished
// message with an empty text. Never fails: any text splits into messages.
std::vector<HarmonyMessage> harmony_messages(std::string_view answer);

// The channel that byte `offset` of the answer belongs to: its message's channel (a header's
// bytes and its closing markers count as their message's), "" before any header.
std::string_view harmony_channel_at(const std::vector<HarmonyMessage>& messages, size_t offset);

// Whether byte `offset` lies in a message's text (false: a header or a closing marker).
bool harmony_in_text(const std::vector<HarmonyMessage>& messages, size_t offset);

} // namespace octo
