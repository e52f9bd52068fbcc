#include "engine/evaluation/model_divergence.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "engine/inference/session.h"

namespace octo {

namespace {

// log-softmax of a row, in double.
std::vector<double> log_softmax(std::span<const float> logits) {
    double max = -std::numeric_limits<double>::infinity();
    for (const float v : logits) max = std::max(max, static_cast<double>(v));
    double sum = 0.0;
    for (const float v : logits) sum += std::exp(static_cast<double>(v) - max);
    const double log_sum = max + std::log(sum);
    std::vector<double> out(logits.size());
    for (size_t i = 0; i < logits.size(); ++i) out[i] = static_cast<double>(logits[i]) - log_sum;
    return out;
}

int32_t top_of(std::span<const float> logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin()); // the first maximum
}

} // namespace

double logits_kl(std::span<const float> p_logits, std::span<const float> q_logits) {
    const std::vector<double> lp = log_softmax(p_logits), lq = log_softmax(q_logits);
    double kl = 0.0;
    for (size_t i = 0; i < lp.size(); ++i) {
        const double p = std::exp(lp[i]);
        if (p > 0.0) kl += p * (lp[i] - lq[i]);
    }
    return std::max(0.0, kl);
}

Result<ModelDivergence> model_divergence(const Model& a, Backend& backend_a, const Model& b, Backend& backend_b,
                                         std::span<const int32_t> prompt, std::span<const int32_t> generated,
                                         std::optional<Precision> precision, const std::atomic<bool>* cancel) {
    if (a.params().n_vocab != b.params().n_vocab) {
        return make_error(ErrorCode::InvalidArgument, "the two models' vocabularies differ (" + std::to_string(a.params().n_vocab) +
                                                          " and " + std::to_string(b.params().n_vocab) +
                                                          " tokens): their distributions cannot be compared token by token");
    }
    if (prompt.empty()) return make_error(ErrorCode::InvalidArgument, "the prompt is empty");
    const auto n = static_cast<int64_t>(prompt.size() + generated.size());
    SessionOptions o;
    o.precision = precision;
    o.cancel = cancel;
    o.n_ctx = n;
    std::unique_ptr<Session> sessions[2];
    const Model* models[2] = {&a, &b};
    Backend* backends[2] = {&backend_a, &backend_b};
    for (int m = 0; m < 2; ++m) {
        if (n > models[m]->n_ctx()) {
            return make_error(ErrorCode::InvalidArgument, std::to_string(n) + " tokens do not fit the context of " +
                                                              std::to_string(models[m]->n_ctx()));
        }
        auto s = Session::create(*models[m], *backends[m], o);
        if (!s) return s.error();
        sessions[m] = std::move(s.value());
        sessions[m]->start(prompt);
    }
    ModelDivergence d;
    const auto step = [&](std::span<const int32_t> tokens) -> Status {
        std::vector<float> rows[2];
        for (int m = 0; m < 2; ++m) {
            auto logits = sessions[m]->eval(tokens);
            if (!logits) return logits.error();
            rows[m].assign(logits.value().begin(), logits.value().end());
        }
        d.steps.push_back({logits_kl(rows[0], rows[1]), top_of(rows[0]), top_of(rows[1])});
        return Ok{};
    };
    if (!generated.empty()) {
        if (auto s = step(prompt); !s) return s.error();
        for (size_t i = 0; i + 1 < generated.size(); ++i) {
            if (auto s = step(generated.subspan(i, 1)); !s) return s.error();
        }
    }
    size_t agree = 0;
    for (size_t i = 0; i < d.steps.size(); ++i) {
        const StepDivergence& s = d.steps[i];
        d.mean_kl += s.kl;
        if (s.kl > d.max_kl || d.max_kl_step < 0) {
            d.max_kl = s.kl;
            d.max_kl_step = static_cast<int64_t>(i);
        }
        if (s.top_a == s.top_b) ++agree;
        else if (!d.first_top_disagreement) d.first_top_disagreement = static_cast<int64_t>(i);
    }
    if (!d.steps.empty()) {
        d.mean_kl /= static_cast<double>(d.steps.size());
        d.top_agreement = static_cast<double>(agree) / static_cast<double>(d.steps.size());
    }
    return d;
}

} // namespace octo
