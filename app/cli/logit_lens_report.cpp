#include "app/cli/logit_lens_report.h"

#include <cstdio>
#include <string>

#include "engine/core/utf8_text.h"
#include "engine/generation/logit_lens_run.h"

namespace octo::cli {

namespace {

// A token's text on one line, quoted: control characters escaped, invalid UTF-8 replaced.
std::string shown(const Tokenizer& tokenizer, int32_t id) {
    std::string out = "\"";
    for (const char c : valid_utf8(tokenizer.token_bytes(id))) {
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '"') out += "\\\"";
        else if (static_cast<unsigned char>(c) < 0x20) out += "\\x" + std::to_string(static_cast<unsigned char>(c));
        else out += c;
    }
    return out + "\"";
}

std::string fixed(double v, int digits) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
    return buffer;
}

} // namespace

Result<std::vector<LogitLens>> generated_token_lenses(OpenedModel& setup, const RunSpec& spec, const ModelRun& run, int64_t k) {
    std::vector<int32_t> tokens = run.prompt.ids;
    std::vector<int64_t> positions;
    for (const TokenEvent& e : run.run.generation.tokens) {
        positions.push_back(static_cast<int64_t>(tokens.size()) - 1);
        tokens.push_back(e.id);
    }
    const RunInputs inputs{.prompt_ids = run.prompt.ids, .expert_map = setup.expert_map()};
    return run_logit_lens(*setup.model, *setup.backend, setup.map(), *setup.kv, spec, inputs, tokens, positions, k);
}

nlohmann::json lenses_json(const std::vector<LogitLens>& lenses, const Tokenizer& tokenizer) {
    nlohmann::json out = nlohmann::json::array();
    for (const LogitLens& l : lenses) out.push_back(logit_lens_json(l, [&](int32_t id) { return tokenizer.token_bytes(id); }));
    return out;
}

void print_lenses(std::ostream& out, const std::vector<LogitLens>& lenses, const Tokenizer& tokenizer) {
    out << "\nlogit lens: each layer's most probable next tokens at the position that chose each token, and the chosen token's rank\n";
    for (size_t i = 0; i < lenses.size(); ++i) {
        const LogitLens& lens = lenses[i];
        out << "token " << i + 1 << " " << shown(tokenizer, lens.chosen) << " (chosen at position " << lens.position << ")\n";
        for (size_t l = 0; l < lens.layers.size(); ++l) {
            const LensLayer& layer = lens.layers[l];
            out << "  layer " << (l < 10 ? " " : "") << l << "  rank " << layer.chosen_rank << " (" << fixed(layer.chosen_prob, 3) << ")  ";
            for (const LensEntry& e : layer.top) out << " " << shown(tokenizer, e.token) << " " << fixed(e.prob, 3);
            out << '\n';
        }
    }
}

} // namespace octo::cli
