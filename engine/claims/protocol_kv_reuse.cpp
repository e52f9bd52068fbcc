// kv_reuse: the article's one shared KV pool ("a request's KV is written once and read by every
// subsystem, no recompute"), measured as what the product's paged pool saves over a realistic
// edit session: per task item, the prompt is run, then edited step by step as a user at the
// workbench would ("edits", applied in order, each to the previous version) and rerun each time,
// all in one pool whose prefix cache starts empty. The value is the share of all prompt tokens
// of the sessions that were taken from the pool's cache instead of computed (bootstrap over sessions).
// Edits: "rerun" (unchanged), "append" (a follow-up instruction at the end), "edit_end" (the last
// character changed), "edit_start" (a word put in front: nothing can be reused).
// The pool reuses whole blocks, so how much of an unchanged prefix it reuses depends on where the
// tokenizer happens to put the block boundaries. Each session therefore starts at a random phase:
// its prompts follow 0 … block−1 newline tokens (drawn from the seed and the claim per session,
// the offset actually obtained recorded), so that the value averages over block alignments
// instead of being decided by one.
// params: "edits", "items" per subsystem, "max_tokens".
#include "engine/claims/claim_protocols.h"
#include "engine/instrumentation/subsystem.h"
#include "engine/sampling/prng.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

namespace {

// The byte length of the last UTF-8 character of `s` (0 for an empty string).
size_t last_char_bytes(const std::string& s) {
    size_t n = 0;
    while (n < s.size()) {
        ++n;
        if ((static_cast<unsigned char>(s[s.size() - n]) & 0xC0) != 0x80) break;
    }
    return n;
}

std::optional<std::string> apply_edit(const std::string& edit, const std::string& prompt, bool zh) {
    if (edit == "rerun") return prompt;
    if (edit == "append") return prompt + (zh ? "请只给出答案。" : " Give only the answer.");
    if (edit == "edit_end") {
        const std::string mark = zh ? "？" : "?";
        if (prompt.size() >= mark.size() && prompt.compare(prompt.size() - mark.size(), mark.size(), mark) == 0) {
            return prompt.substr(0, prompt.size() - mark.size());
        }
        return prompt.substr(0, prompt.size() - last_char_bytes(prompt)) + mark;
    }
    if (edit == "edit_start") return (zh ? std::string("请回答：") : std::string("Please answer: ")) + prompt;
    return std::nullopt;
}

} // namespace

Result<ClaimResult> protocol_kv_reuse(ClaimLab& lab, const Claim& claim) {
    std::vector<std::string> edits = {"rerun", "append", "edit_end", "rerun", "edit_start"};
    if (claim.params.contains("edits")) {
        edits.clear();
        const nlohmann::json& e = claim.params["edits"];
        for (const auto& x : e.is_array() ? e : nlohmann::json::array()) edits.push_back(x.is_string() ? x.get<std::string>() : "");
        if (edits.empty()) return make_error(ErrorCode::Format, "claim " + claim.id + ": \"edits\" must be a non-empty list");
    }
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 8);
    if (lab.model().server) {
        return not_measurable("this needs a local model: a server's prefix cache is shared with its other clients and cannot "
                              "be emptied before the claim, so the tokens it reuses would not measure these sessions alone");
    }
    std::vector<int> all;
    for (int s = 0; s < kSubsystemCount; ++s) all.push_back(s);
    const std::vector<const TaskItem*> items = lab.select_items(all, lab.items_per_subsystem(claim, 6));

    std::vector<double> reused, prompt_tokens;
    std::vector<int> strata;
    ClaimTable table{"runs", {"session", "step", "edit", "prompt_tokens", "reused_tokens", "phase_tokens"}, {}};
    const int32_t block = lab.model().kv ? lab.model().kv->pool().block_size() : 0;
    uint64_t phase_state = lab.bootstrap_options(claim).seed ^ 0x9e3779b97f4a7c15ULL;
    // The tokens a text adds in front of a prompt (the filler's own count where the tokenizer keeps it apart).
    auto token_count = [&](const std::string& text) -> int64_t {
        if (!lab.model().tokenizer) return 0;
        auto ids = lab.model().tokenizer->encode(text, false, false);
        return ids ? static_cast<int64_t>(ids->size()) : 0;
    };
    std::vector<double> step_reused(edits.size() + 1, 0.0), step_tokens(edits.size() + 1, 0.0);
    for (size_t i = 0; i < items.size(); ++i) {
        const bool zh = items[i]->lang == "zh";
        std::string prompt = items[i]->prompt;
        const std::string filler(block > 0 ? splitmix64_next(phase_state) % static_cast<uint64_t>(block) : 0, '\n');
        const int64_t phase = filler.empty() ? 0 : token_count(filler + prompt) - token_count(prompt);
        double r = 0, t = 0;
        for (size_t k = 0; k <= edits.size(); ++k) {
            if (k > 0) {
                auto next = apply_edit(edits[k - 1], prompt, zh);
                if (!next) return make_error(ErrorCode::Format, "claim " + claim.id + ": unknown edit \"" + edits[k - 1] + "\"");
                prompt = std::move(*next);
            }
            auto a = lab.answer(claim_question(filler + prompt, max_tokens), false);
            if (!a) return a.error();
            r += static_cast<double>(a.value()->reused_tokens);
            t += static_cast<double>(a.value()->prompt_tokens);
            step_reused[k] += static_cast<double>(a.value()->reused_tokens);
            step_tokens[k] += static_cast<double>(a.value()->prompt_tokens);
            table.rows.push_back({std::to_string(i), std::to_string(k), k == 0 ? "first run" : edits[k - 1],
                                  std::to_string(a.value()->prompt_tokens), std::to_string(a.value()->reused_tokens),
                                  std::to_string(phase)});
        }
        reused.push_back(r);
        prompt_tokens.push_back(t);
        strata.push_back(items[i]->subsystem);
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(items.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    ClaimResult res;
    res.estimate = clustered_share_estimate(strata, reused, prompt_tokens, lab.bootstrap_options(claim));
    if (!res.estimate) return not_measurable("no session ran");
    std::vector<std::string> labels{"first run"};
    std::vector<double> values;
    std::vector<Interval> ci;
    for (size_t k = 0; k <= edits.size(); ++k) {
        if (k > 0) labels.push_back(std::to_string(k) + ". " + edits[k - 1]);
        const double v = step_tokens[k] > 0 ? step_reused[k] / step_tokens[k] : 0.0;
        values.push_back(v);
        ci.push_back({v, v});
    }
    res.details["plot"] = bars_plot(labels, values, ci, "share of prompt tokens reused");
    res.details["plot"]["no_intervals"] = true;
    res.details["block_size"] = block;
    res.method = "Edit sessions on " + std::to_string(items.size()) + " task items: each prompt is run, then edited (" +
                 [&] {
                     std::string s;
                     for (size_t k = 0; k < edits.size(); ++k) s += (k ? ", " : "") + edits[k];
                     return s;
                 }() +
                 ") and rerun after each edit, greedily (at most " + std::to_string(max_tokens) +
                 " answer tokens), in the shared paged KV pool (blocks of " + std::to_string(block) +
                 " tokens; the prefix cache starts empty). Each session's prompts follow a random number (0 to " +
                 std::to_string(block > 0 ? block - 1 : 0) + ") of newline tokens, so that block boundaries fall at a random phase "
                 "and the value averages over alignments (the offsets are in the runs table). Value: prompt tokens taken from the cache / all prompt tokens of the "
                 "sessions. The per-step bars have no intervals (they are descriptive). Expanded percentile bootstrap over sessions.";
    res.tables.push_back(std::move(table));
    return res;
}

} // namespace octo
