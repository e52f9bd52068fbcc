// prompt_ab: two wordings of the same task items, paired (same item, greedy decoding, same
// model): "a" and "b" are templates {"en": "… {prompt} …", "zh": "…"} filled with the item's
// prompt in its language. "statistic": "accuracy_difference" (accuracy of b minus a) or
// "error_reduction" (1 − errors(b) / errors(a), the share of a's errors that b removes).
// "match": "exact" (the answer text) or "number" (the first number in the answer).
// params also: "subsystems" (whose items), "items" per subsystem, "max_tokens".
#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

namespace {

bool valid_template(const nlohmann::json& t) {
    return t.is_object() && t.contains("en") && t["en"].is_string() && t.contains("zh") && t["zh"].is_string() &&
           t["en"].get<std::string>().find("{prompt}") != std::string::npos &&
           t["zh"].get<std::string>().find("{prompt}") != std::string::npos;
}

} // namespace

Result<ClaimResult> protocol_prompt_ab(ClaimLab& lab, const Claim& claim) {
    const nlohmann::json& p = claim.params;
    if (!p.contains("a") || !valid_template(p["a"]) || !p.contains("b") || !valid_template(p["b"])) {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"a\" and \"b\" must be {\"en\", \"zh\"} templates with {prompt}");
    }
    const std::string statistic = json_string_or(p, "statistic", "accuracy_difference");
    if (statistic != "accuracy_difference" && statistic != "error_reduction") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"statistic\" must be accuracy_difference or error_reduction");
    }
    const AnswerMatch match = json_string_or(p, "match", "exact") == "number" ? AnswerMatch::Number : AnswerMatch::Exact;
    const int64_t max_tokens = int_param(p, "max_tokens", 16);
    auto subsystems = subsystem_list_param(p, "subsystems");
    if (!subsystems) return subsystems.error();
    const std::vector<const TaskItem*> items = lab.select_items(*subsystems, lab.items_per_subsystem(claim, 48));

    PairedCounts counts;
    ClaimTable table{"items", {"subsystem", "prompt_a", "answer_a", "right_a", "prompt_b", "answer_b", "right_b", "expected"}, {}};
    std::vector<RunSpec> requests;
    for (const TaskItem* item : items) {
        requests.push_back(claim_question(fill_template(p["a"], *item), max_tokens));
        requests.push_back(claim_question(fill_template(p["b"], *item), max_tokens));
    }
    if (auto fetched = lab.prefetch(requests); !fetched) return fetched.error();
    for (size_t i = 0; i < items.size(); ++i) {
        const std::string pa = fill_template(p["a"], *items[i]);
        const std::string pb = fill_template(p["b"], *items[i]);
        auto a = lab.answer(claim_question(pa, max_tokens));
        if (!a) return a.error();
        auto b = lab.answer(claim_question(pb, max_tokens));
        if (!b) return b.error();
        const bool ra = answer_correct(*a.value(), *items[i], match);
        const bool rb = answer_correct(*b.value(), *items[i], match);
        counts.add(ra, rb);
        table.rows.push_back({std::string(subsystem_id(items[i]->subsystem)), pa, a.value()->text, ra ? "1" : "0", pb,
                              b.value()->text, rb ? "1" : "0", items[i]->answer});
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(items.size()))) {
            return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    ClaimResult r;
    if (items.empty()) return not_measurable("no items were selected");
    if (statistic == "accuracy_difference") {
        r.estimate = paired_difference_estimate(counts);
    } else {
        r.estimate = error_reduction_estimate(counts);
        if (!r.estimate) return not_measurable("the model made no errors with wording a, so there are none to cut");
    }
    const double mcnemar_p = mcnemar_exact_p(counts.only_a, counts.only_b);
    r.estimate->p_value = mcnemar_p;
    if (both_at_one_bound(counts)) {
        r.reason = counts.both > 0 ? "both wordings were right on every item, so the items cannot tell the wordings apart"
                                   : "both wordings were wrong on every item, so the items cannot tell the wordings apart";
    }
    r.details["mcnemar_exact_p"] = mcnemar_p;
    r.details["discordant"] = {{"only_a", counts.only_a}, {"only_b", counts.only_b}};
    std::vector<Interval> ci;
    std::vector<double> values;
    for (const int64_t hits : {counts.both + counts.only_a, counts.both + counts.only_b}) {
        const Estimate e = proportion_estimate(hits, counts.n());
        values.push_back(e.value);
        ci.push_back(e.ci95);
    }
    // Labels: {"en", "zh"} (or one string) per wording; the plot keeps both languages.
    auto label = [&](const char* key, const char* lang, const char* fallback) {
        if (!p.contains(key)) return std::string(fallback);
        if (p[key].is_string()) return p[key].get<std::string>();
        return p[key].value(lang, std::string(fallback));
    };
    r.details["plot"] = bars_plot({label("a_label", "en", "wording a"), label("b_label", "en", "wording b")}, values, ci, "accuracy");
    r.details["plot"]["labels_zh"] = {label("a_label", "zh", "措辞 a"), label("b_label", "zh", "措辞 b")};
    r.details["accuracy_a"] = values[0];
    r.details["accuracy_b"] = values[1];
    r.details["match"] = match == AnswerMatch::Number ? "number" : "exact";
    r.method = "Paired A/B on " + std::to_string(items.size()) + " task items (" +
               (statistic == "accuracy_difference" ? "accuracy with wording b minus with wording a" : "share of wording a's errors that wording b removes") +
               "): each item is asked both ways with greedy decoding (at most " + std::to_string(max_tokens) +
               " tokens), right when " + (match == AnswerMatch::Number ? "the first number in the answer is the expected number" : "the answer is exactly the expected text") +
               ". Wording a: \"" + p["a"]["en"].get<std::string>() + "\"; wording b: \"" + p["b"]["en"].get<std::string>() +
               "\" (Chinese items take the Chinese wordings). " +
               (statistic == "accuracy_difference" ? "Newcombe's paired interval over items and the exact McNemar test of the discordant items."
                                                   : "Bonett and Price's paired interval for the ratio errors(b)/errors(a) (hybrid Wilson score) and the exact McNemar test of the discordant items.");
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
