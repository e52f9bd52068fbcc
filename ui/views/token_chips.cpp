#include "ui/views/token_chips.h"

#include "engine/chat/harmony_channels.h"

#include <QStringDecoder>

#include <algorithm>

namespace octo::ui {

namespace {

// Whether `bytes` ends on a character boundary (no UTF-8 sequence left open).
bool complete_utf8(const std::string& bytes) {
    size_t i = 0;
    while (i < bytes.size()) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
        if (i + len > bytes.size()) return false;
        i += len;
    }
    return true;
}

} // namespace

QString token_display_text(const std::string& bytes) {
    QString s = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
    if (s.isEmpty()) return QStringLiteral("∅"); // a control token with no bytes
    s.replace(QChar('\n'), QStringLiteral("↵"));
    s.replace(QChar('\t'), QStringLiteral("→"));
    s.replace(QChar(' '), QChar(0x00B7));
    return s;
}

namespace {

TokenChip chip(int first, int count, const std::string& bytes, bool generated) {
    TokenChip c;
    c.first = first;
    c.count = count;
    c.text = token_display_text(bytes);
    c.generated = generated;
    return c;
}

} // namespace

std::vector<TokenChip> make_chips(const std::vector<TraceToken>& tokens) {
    std::vector<TokenChip> chips;
    std::string pending;
    int first = 0;
    for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
        const TraceToken& t = tokens[static_cast<size_t>(i)];
        const bool boundary = i > first && tokens[static_cast<size_t>(i - 1)].generated != t.generated;
        if (boundary && !pending.empty()) { // never join a prompt and a generated token
            chips.push_back(chip(first, i - first, pending, tokens[static_cast<size_t>(first)].generated));
            pending.clear();
            first = i;
        }
        pending += t.bytes;
        const bool last = i + 1 == static_cast<int>(tokens.size());
        if (complete_utf8(pending) || last || pending.size() >= 16) {
            chips.push_back(chip(first, i - first + 1, pending, t.generated));
            pending.clear();
            first = i + 1;
        }
    }
    return chips;
}

void mark_harmony_channels(const std::vector<TraceToken>& tokens, std::vector<TokenChip>& chips) {
    std::string answer;
    std::vector<size_t> offset(tokens.size(), 0); // each generated token's first byte in the answer
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (!tokens[i].generated) continue;
        offset[i] = answer.size();
        answer += tokens[i].bytes;
    }
    if (answer.find("<|channel|>") == std::string::npos) return;
    const std::vector<HarmonyMessage> messages = harmony_messages(answer);
    QString previous;
    bool first = true;
    for (TokenChip& c : chips) {
        if (!c.generated) continue;
        const size_t at = offset[static_cast<size_t>(c.first)];
        c.channel = QString::fromStdString(std::string(harmony_channel_at(messages, at)));
        c.marker = !harmony_in_text(messages, at);
        c.channel_start = first || c.channel != previous;
        previous = c.channel;
        first = false;
    }
}

int dominant_subsystem(const std::vector<TraceToken>& tokens, const TokenChip& chip, Metric metric) {
    SubsystemValues sum{};
    bool any = false;
    for (int i = chip.first; i < chip.first + chip.count; ++i) {
        const auto& v = tokens[static_cast<size_t>(i)].metrics.get(metric);
        if (!v) continue;
        any = true;
        for (size_t s = 0; s < sum.size(); ++s) sum[s] += (*v)[s];
    }
    if (!any) return -1;
    return static_cast<int>(std::max_element(sum.begin(), sum.end()) - sum.begin());
}

ChipConstraint chip_constraint(const std::vector<TraceToken>& tokens, const TokenChip& chip) {
    ChipConstraint out;
    for (int i = chip.first; i < chip.first + chip.count && i < static_cast<int>(tokens.size()); ++i) {
        const auto& c = tokens[static_cast<size_t>(i)].constraint;
        if (c && c->removed_mass > out.removed_mass) {
            out.removed_mass = c->removed_mass;
            out.token = i;
        }
    }
    return out;
}

} // namespace octo::ui
