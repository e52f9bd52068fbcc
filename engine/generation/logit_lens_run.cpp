#include "engine/generation/logit_lens_run.h"

#include <algorithm>
#include <map>

#include "engine/inference/session.h"

namespace octo {

namespace {

constexpr int64_t kChunk = 64; // prompt tokens a step: their residuals are held per token and layer

} // namespace

Result<std::vector<LogitLens>> run_logit_lens(const Model& model, Backend& backend, const HeadMap& map, KvStore& kv,
                                              const RunSpec& spec, const RunInputs& inputs,
                                              std::span<const int32_t> tokens, std::span<const int64_t> positions,
                                              int64_t k) {
    const auto n = static_cast<int64_t>(tokens.size());
    const auto n_prompt = static_cast<int64_t>(inputs.prompt_ids.size());
    if (k < 1) return make_error(ErrorCode::InvalidArgument, "the logit lens needs k of 1 or more");
    if (n_prompt == 0 || n_prompt > n || !std::equal(inputs.prompt_ids.begin(), inputs.prompt_ids.end(), tokens.begin())) {
        return make_error(ErrorCode::InvalidArgument, "the logit lens needs the run's prompt at the start of its tokens");
    }
    for (const int64_t p : positions) {
        if (p < 0 || p >= n) {
            return make_error(ErrorCode::InvalidArgument, "the logit lens was asked for position " + std::to_string(p) +
                                                              " of a run of " + std::to_string(n) + " tokens");
        }
    }
    std::vector<int64_t> wanted(positions.begin(), positions.end());
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    std::map<int64_t, LogitLens> found;
    if (wanted.empty()) return std::vector<LogitLens>{};

    auto options = instrumented_session_options(model, backend, map, kv, spec, inputs);
    if (!options) return options.error();
    SessionOptions o = std::move(options.value());
    o.instrument.attention = false; // not needed, and not part of the blocks' key
    o.instrument.layer_hidden = true;
    o.reuse_with_hidden = true;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    Session& s = *session.value();
    // The whole prompt, so its positions are evaluated as the run evaluated them; back to the
    // first position asked when the pool held more than that.
    if (s.start(inputs.prompt_ids) > wanted.front()) {
        if (auto r = s.rewind(wanted.front()); !r) return r.error();
    }
    size_t next = 0;
    while (next < wanted.size()) {
        const int64_t at = s.position();
        // Prompt tokens in steps of up to kChunk; generated tokens one at a time, as they were run.
        const int64_t end = at < n_prompt ? std::min({at + kChunk, n_prompt, wanted[next] + 1}) : at + 1;
        auto evaluated = s.eval(tokens.subspan(static_cast<size_t>(at), static_cast<size_t>(end - at)));
        if (!evaluated) return evaluated.error();
        const std::span<const TokenProbe> probes = s.probes();
        while (next < wanted.size() && wanted[next] < end) {
            const int64_t p = wanted[next++];
            const TokenProbe& probe = probes[static_cast<size_t>(p - at)];
            auto logits = lens_logits(model, backend, s.precision(), probe.layer_hidden);
            if (!logits) return logits.error();
            const int32_t chosen = p + 1 < n ? tokens[static_cast<size_t>(p + 1)] : -1;
            found[p] = lens_from_logits(logits.value(), model.params().n_layer, model.params().n_vocab, p, chosen, k);
        }
    }
    std::vector<LogitLens> out;
    out.reserve(positions.size());
    for (const int64_t p : positions) out.push_back(found.at(p));
    return out;
}

} // namespace octo
