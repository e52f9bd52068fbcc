// head_groups: "why 8". octet was trained with 8 router groups (one per subsystem); the same
// model trained with other group counts under the same budget (tools/octet/train.py --groups N:
// same width, depth, data, steps and seed) ships as octet/variants/octet-g<N>.gguf. Each model
// answers the same task items greedily, without ablation and with each of its router groups
// switched off in turn — exactly one group's heads zeroed per switch, in every variant (with 4
// groups one group serves two subsystems, with 16 a subsystem has two groups). A group's own
// items are those of the subsystems it serves. Per model: accuracy, specialisation (the mean over
// groups of the drop a group's switch causes on its own items minus the drop on the others') and
// error propagation (the mean over groups of the drop a switch causes on the items of subsystems
// the group does not serve — so 4 groups' neighbour, which shares the switched group, is not
// counted as propagation).
// "statistic": "accuracy" — 8 groups' accuracy minus the best variant's (paired by item);
// "propagation" — error propagation of the variant with `variant` groups minus 8 groups'.
// params: "groups" (the variants), "variant", "items" per subsystem, "max_tokens".
// The loaded model must be the 8-group octet (the claim compares it with its variants).
#include <algorithm>
#include <filesystem>

#include "engine/claims/claim_protocols.h"
#include "engine/core/json_fields.h"
#include "engine/instrumentation/subsystem.h"
#include "engine/model/model.h"

namespace octo {

namespace {

// The groups serving subsystem s with `groups` router groups (tools/octet/model.py groups_of).
std::vector<int64_t> groups_of(int s, int64_t groups) {
    if (groups >= kSubsystemCount) {
        const int64_t k = groups / kSubsystemCount;
        std::vector<int64_t> out;
        for (int64_t g = s * k; g < (s + 1) * k; ++g) out.push_back(g);
        return out;
    }
    return {s * groups / kSubsystemCount};
}

} // namespace

bool group_serves(int64_t g, int s, int64_t groups) {
    const auto mine = groups_of(s, groups);
    return std::find(mine.begin(), mine.end(), g) != mine.end();
}

Result<HeadMap> one_group_map(int64_t g, int64_t groups, int64_t n_layer, int64_t n_head) {
    if (groups <= 0 || n_head % groups != 0 || g < 0 || g >= groups) {
        return make_error(ErrorCode::InvalidArgument, "group " + std::to_string(g) + " of " + std::to_string(groups) +
                                                          " router groups over " + std::to_string(n_head) + " heads");
    }
    nlohmann::json layers = nlohmann::json::array();
    const int64_t per_group = n_head / groups;
    for (int64_t l = 0; l < n_layer; ++l) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t k = 0; k < n_head; ++k) row.push_back(std::string(subsystem_id(k / per_group == g ? 0 : 1)));
        layers.push_back(row);
    }
    return HeadMap::from_json({{"version", 1}, {"layers", layers}}, n_layer, n_head, HeadMapSource::Gguf);
}

namespace {

struct Measured {
    int64_t groups = 0;
    // right[u][0]: without ablation; right[u][1 + g]: group g off.
    std::vector<std::vector<double>> right;
};

// One model's answers to every item, plain and with each of its groups off.
Result<Measured> measure(const ClaimLab& lab, ClaimModel model, const std::vector<const TaskItem*>& items, int64_t groups,
                         int64_t max_tokens, int64_t& done, int64_t total) {
    const int64_t n_layer = model.model->params().n_layer, n_head = model.model->params().n_head;
    if (groups <= 0 || n_head % groups != 0) {
        return make_error(ErrorCode::InvalidModel, model.name + ": " + std::to_string(groups) + " router groups do not divide " +
                                                       std::to_string(n_head) + " heads");
    }
    Measured m;
    m.groups = groups;
    m.right.assign(items.size(), std::vector<double>(static_cast<size_t>(groups) + 1, 0.0));
    std::array<bool, kSubsystemCount> off{};
    off[0] = true;
    for (int64_t c = 0; c <= groups; ++c) {
        std::optional<HeadMap> map;
        if (c > 0) {
            auto built = one_group_map(c - 1, groups, n_layer, n_head);
            if (!built) return built.error();
            map.emplace(std::move(built.value()));
            model.map = &*map;
        }
        ClaimLab sub(model, lab.data(), lab.options());
        for (size_t u = 0; u < items.size(); ++u) {
            auto a = sub.answer(claim_question(items[u]->prompt, max_tokens, c > 0 ? off : std::array<bool, kSubsystemCount>{}));
            if (!a) return a.error();
            m.right[u][static_cast<size_t>(c)] = answer_correct(*a.value(), *items[u], AnswerMatch::Exact) ? 1.0 : 0.0;
            if (!sub.step(++done, total)) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
        }
    }
    return m;
}

struct Figures {
    double accuracy = 0, specialisation = 0, propagation = 0;
};

std::optional<Figures> figures(const Measured& m, const std::vector<int>& strata, std::span<const double> w) {
    const auto G = static_cast<size_t>(m.groups);
    std::vector<std::array<double, kSubsystemCount>> drop(G, std::array<double, kSubsystemCount>{}); // [group off][items of]
    std::array<double, kSubsystemCount> n{};
    double right = 0, all = 0;
    for (size_t u = 0; u < m.right.size(); ++u) {
        const auto j = static_cast<size_t>(strata[u]);
        n[j] += w[u];
        right += w[u] * m.right[u][0];
        all += w[u];
        for (size_t g = 0; g < G; ++g) drop[g][j] += w[u] * (m.right[u][0] - m.right[u][g + 1]);
    }
    if (all <= 0) return std::nullopt;
    for (size_t j = 0; j < kSubsystemCount; ++j) {
        if (n[j] <= 0) return std::nullopt;
    }
    Figures f;
    f.accuracy = right / all;
    for (size_t g = 0; g < G; ++g) {
        double own = 0, others = 0;
        int n_own = 0, n_others = 0;
        for (size_t j = 0; j < kSubsystemCount; ++j) {
            const double d = drop[g][j] / n[j];
            if (group_serves(static_cast<int64_t>(g), static_cast<int>(j), m.groups)) {
                own += d;
                ++n_own;
            } else {
                others += d;
                ++n_others;
            }
        }
        f.specialisation += (own / n_own - others / n_others) / static_cast<double>(G);
        f.propagation += others / n_others / static_cast<double>(G);
    }
    return f;
}

// A variant of octet opened beside the loaded model and measured as the loaded one is.
Result<Measured> measure_variant(ClaimLab& lab, const std::filesystem::path& path, int64_t expected_groups,
                                 const std::vector<const TaskItem*>& items, int64_t max_tokens, int64_t& done, int64_t total) {
    auto opened = lab.options().open_model(path.string(), *lab.model().backend);
    if (!opened) return opened.error();
    const Model& model = *opened->model.model;
    const int64_t groups = model.weights().n_router_groups;
    if (groups != expected_groups) {
        return make_error(ErrorCode::InvalidModel, path.string() + ": has " + std::to_string(groups) + " router groups, not " +
                                                       std::to_string(expected_groups));
    }
    ClaimModel m = opened->model;
    m.expert_map = nullptr;
    m.name = path.filename().string();
    return measure(lab, m, items, groups, max_tokens, done, total);
}

// Each model's accuracy, specialisation and error propagation with bootstrap intervals: one bar
// series a model, and the table of the three figures.
ClaimTable model_figures(const std::vector<Measured>& models, const std::vector<int>& strata, const BootstrapOptions& bo,
                         std::vector<BarSeries>& series) {
    ClaimTable table{"models", {"groups", "accuracy", "specialisation", "error_propagation"}, {}};
    for (size_t k = 0; k < models.size(); ++k) {
        BarSeries s{std::to_string(models[k].groups) + " groups", {}, {}};
        std::vector<std::string> row{std::to_string(models[k].groups)};
        for (int which = 0; which < 3; ++which) {
            const auto e = bootstrap(strata, [&](std::span<const double> w) -> std::optional<double> {
                const auto f = figures(models[k], strata, w);
                if (!f) return std::nullopt;
                return which == 0 ? f->accuracy : which == 1 ? f->specialisation : f->propagation;
            }, BootstrapOptions{bo.resamples / 4, bo.seed + static_cast<uint64_t>(k * 3 + static_cast<size_t>(which)) + 1});
            s.values.push_back(e ? e->value : 0.0);
            s.ci.push_back(e ? e->ci95 : Interval{});
            row.push_back(fmt(s.values.back()));
        }
        series.push_back(std::move(s));
        table.rows.push_back(std::move(row));
    }
    return table;
}

} // namespace

Result<ClaimResult> protocol_head_groups(ClaimLab& lab, const Claim& claim) {
    std::vector<int64_t> variants = {4, 16};
    if (claim.params.contains("groups") && claim.params["groups"].is_array()) {
        variants.clear();
        for (const auto& g : claim.params["groups"]) variants.push_back(g.is_number_integer() ? g.get<int64_t>() : 0);
    }
    const std::string statistic = json_string_or(claim.params, "statistic", "accuracy");
    const int64_t variant = json_integer_or(claim.params, "variant", 4);
    if (statistic != "accuracy" && statistic != "propagation") {
        return make_error(ErrorCode::Format, "claim " + claim.id + ": \"statistic\" must be accuracy or propagation");
    }
    const std::string method = "Compares octet with 8 router groups against the same model trained with other group counts "
                               "under the same budget (tools/octet/train.py --groups N), on accuracy, specialisation and error "
                               "propagation.";
    const ClaimModel& base = lab.model();
    if (!base.model || base.model->weights().n_router_groups != kSubsystemCount || base.model->params().architecture != "octet") {
        return not_measurable("this claim compares the built-in octet (8 router groups) with its variants; load octet to measure it", method);
    }
    std::string missing;
    std::vector<std::filesystem::path> paths;
    for (const int64_t g : variants) {
        const auto path = std::filesystem::path(lab.data().resource_dir) / "octet" / "variants" / ("octet-g" + std::to_string(g) + ".gguf");
        if (!std::filesystem::exists(path)) missing += (missing.empty() ? "" : ", ") + path.filename().string();
        paths.push_back(path);
    }
    if (!missing.empty()) {
        return not_measurable("the octet variants trained with other head-group counts are not shipped yet (" + missing +
                                  " missing from octet/variants/), so there is nothing to compare the 8 groups with",
                              method);
    }
    if (!lab.options().open_model) return not_measurable("this workbench cannot open the octet variants beside the loaded model", method);
    const int64_t max_tokens = int_param(claim.params, "max_tokens", 16);
    std::vector<int> all;
    for (int s = 0; s < kSubsystemCount; ++s) all.push_back(s);
    const std::vector<const TaskItem*> items = lab.select_items(all, lab.items_per_subsystem(claim, 16));
    std::vector<int> strata;
    for (const TaskItem* it : items) strata.push_back(it->subsystem);
    int64_t runs_per_item = kSubsystemCount + 1;
    for (const int64_t g : variants) runs_per_item += g + 1;
    const int64_t total = static_cast<int64_t>(items.size()) * runs_per_item;
    int64_t done = 0;

    // The loaded octet first, then its variants, each with one group switched off at a time.
    std::vector<Measured> models;
    {
        auto r = measure(lab, base, items, kSubsystemCount, max_tokens, done, total);
        if (!r) return r.error();
        models.push_back(std::move(r.value()));
    }
    for (size_t v = 0; v < variants.size(); ++v) {
        auto r = measure_variant(lab, paths[v], variants[v], items, max_tokens, done, total);
        if (!r) return r.error();
        models.push_back(std::move(r.value()));
    }

    auto stat = [&](std::span<const double> w) -> std::optional<double> {
        std::vector<Figures> f;
        for (const Measured& m : models) {
            const auto x = figures(m, strata, w);
            if (!x) return std::nullopt;
            f.push_back(*x);
        }
        if (statistic == "propagation") {
            for (size_t k = 1; k < models.size(); ++k) {
                if (models[k].groups == variant) return f[k].propagation - f[0].propagation;
            }
            return std::nullopt;
        }
        double best = -1.0;
        for (size_t k = 1; k < f.size(); ++k) best = std::max(best, f[k].accuracy);
        return f[0].accuracy - best;
    };
    const BootstrapOptions bo = lab.bootstrap_options(claim);
    ClaimResult r;
    r.estimate = bootstrap(strata, stat, bo);
    if (!r.estimate) return not_measurable(statistic == "propagation" ? "no variant with " + std::to_string(variant) + " groups was compared" : "no items", method);

    // Each model's three figures with intervals: grouped bars, one group per figure.
    std::vector<BarSeries> series;
    ClaimTable table = model_figures(models, strata, bo, series);
    r.details["plot"] = grouped_bars_plot({"accuracy", "specialisation", "error propagation"}, series, "share of items");
    r.method = method + " " + std::to_string(items.size()) + " task items (" + std::to_string(items.size() / kSubsystemCount) +
               " per subsystem), greedy answers (at most " + std::to_string(max_tokens) + " tokens) by each model, plain and with each "
               "router group switched off in turn (zero ablation of exactly that group's heads; with 4 groups a group serves two "
               "subsystems, both its own, with 16 a subsystem has two groups). " +
               (statistic == "accuracy" ? std::string("Value: 8 groups' accuracy minus the best variant's, paired by item.")
                                        : "Value: error propagation (the mean over groups of the accuracy drop a group's switch causes "
                                          "on the items of subsystems it does not serve) with " + std::to_string(variant) + " groups minus with 8.") +
               " Expanded percentile bootstrap over items, stratified by subsystem.";
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
