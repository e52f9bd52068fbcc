#include "engine/instrumentation/logit_lens.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

#include <nlohmann/json.hpp>

#include "engine/core/utf8_text.h"
#include "engine/inference/llama_forward.h"

namespace octo {

namespace {

// NaN counts as the lowest logit, so orders stay strict.
inline float ordered(float v) { return std::isnan(v) ? -std::numeric_limits<float>::infinity() : v; }

} // namespace

Result<std::vector<float>> lens_logits(const Model& model, Backend& backend, Precision precision,
                                       std::span<const float> layer_hidden) {
    const ModelParams& p = model.params();
    const ModelWeights& w = model.weights();
    const int64_t n_layer = p.n_layer, n_embd = p.n_embd, n_vocab = p.n_vocab;
    if (static_cast<int64_t>(layer_hidden.size()) != n_layer * n_embd) {
        return make_error(ErrorCode::InvalidArgument, "the logit lens needs " + std::to_string(n_layer) + " residuals of " +
                                                          std::to_string(n_embd) + " values, got " +
                                                          std::to_string(layer_hidden.size()) + " values");
    }
    if (!w.output || !w.output_norm) return make_error(ErrorCode::InvalidArgument, "the model has no output matrix for the logit lens");
    const std::unique_ptr<DeviceBuffer> x = backend.allocate(n_layer * n_embd);
    const std::unique_ptr<DeviceBuffer> normed = backend.allocate(n_layer * n_embd);
    const std::unique_ptr<DeviceBuffer> logits = backend.allocate(n_layer * n_vocab);
    backend.write(layer_hidden, x->data());
    backend.rms_norm(x->data(), reinterpret_cast<const float*>(w.output_norm->data), normed->data(), n_layer, n_embd,
                     static_cast<float>(p.rms_norm_eps));
    // Each row as the model's output product of a lone token (a generated token, or a prompt's last).
    const std::vector<uint8_t> alone(static_cast<size_t>(n_layer), 0);
    backend.matmul(weight_matrix(*w.output), normed->data(), logits->data(), n_layer, ProductPrecision{precision, alone});
    if (p.final_logit_softcap > 0.0) backend.softcap(logits->data(), n_layer * n_vocab, static_cast<float>(p.final_logit_softcap));
    std::vector<float> out(static_cast<size_t>(n_layer * n_vocab));
    backend.read(logits->data(), out);
    return out;
}

LogitLens lens_from_logits(std::span<const float> logits, int64_t n_layer, int64_t n_vocab, int64_t position,
                           int32_t chosen, int64_t k) {
    LogitLens lens;
    lens.position = position;
    lens.chosen = chosen >= 0 && chosen < n_vocab ? chosen : -1;
    k = std::clamp<int64_t>(k, 1, n_vocab);
    std::vector<int32_t> ids(static_cast<size_t>(n_vocab));
    for (int64_t l = 0; l < n_layer; ++l) {
        const float* row = logits.data() + l * n_vocab;
        float max = -std::numeric_limits<float>::infinity();
        for (int64_t v = 0; v < n_vocab; ++v) max = std::max(max, ordered(row[v]));
        double sum = 0.0;
        for (int64_t v = 0; v < n_vocab; ++v) sum += std::exp(static_cast<double>(ordered(row[v])) - max);
        const auto prob = [&](int32_t v) { return static_cast<float>(std::exp(static_cast<double>(ordered(row[v])) - max) / sum); };
        const auto before = [&](int32_t a, int32_t b) { // a ranks before b
            const float fa = ordered(row[a]), fb = ordered(row[b]);
            return fa > fb || (fa == fb && a < b);
        };
        std::iota(ids.begin(), ids.end(), 0);
        std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), before);
        LensLayer layer;
        for (int64_t i = 0; i < k; ++i) layer.top.push_back({ids[static_cast<size_t>(i)], prob(ids[static_cast<size_t>(i)])});
        if (lens.chosen >= 0) {
            int64_t ahead = 0;
            for (int32_t v = 0; v < n_vocab; ++v) ahead += before(v, lens.chosen);
            layer.chosen_rank = ahead + 1;
            layer.chosen_prob = prob(lens.chosen);
        }
        lens.layers.push_back(std::move(layer));
    }
    return lens;
}

NamedLens name_lens(LogitLens lens, const std::function<std::string(int32_t)>& text) {
    NamedLens named;
    if (lens.chosen >= 0) named.texts[lens.chosen] = text(lens.chosen);
    for (const LensLayer& layer : lens.layers) {
        for (const LensEntry& e : layer.top) named.texts.try_emplace(e.token, text(e.token));
    }
    named.lens = std::move(lens);
    return named;
}

nlohmann::json logit_lens_json(const LogitLens& lens, const std::function<std::string(int32_t)>& text) {
    nlohmann::json layers = nlohmann::json::array();
    for (size_t l = 0; l < lens.layers.size(); ++l) {
        const LensLayer& layer = lens.layers[l];
        nlohmann::json top = nlohmann::json::array();
        for (const LensEntry& e : layer.top) {
            nlohmann::json item = {{"token", e.token}, {"prob", e.prob}};
            if (text) item["text"] = valid_utf8(text(e.token));
            top.push_back(std::move(item));
        }
        nlohmann::json j = {{"layer", l}, {"top", std::move(top)}};
        if (lens.chosen >= 0) {
            j["chosen_rank"] = layer.chosen_rank;
            j["chosen_prob"] = layer.chosen_prob;
        }
        layers.push_back(std::move(j));
    }
    nlohmann::json j = {{"position", lens.position}, {"chosen", lens.chosen}, {"layers", std::move(layers)}};
    if (text && lens.chosen >= 0) j["chosen_text"] = valid_utf8(text(lens.chosen));
    return j;
}

Result<LogitLens> logit_lens_from_json(const nlohmann::json& j) {
    const auto bad = [](const std::string& what) { return make_error(ErrorCode::Format, "logit lens: " + what); };
    if (!j.is_object() || !j.contains("position") || !j["position"].is_number_integer() || !j.contains("chosen") ||
        !j["chosen"].is_number_integer() || !j.contains("layers") || !j["layers"].is_array()) {
        return bad("needs an integer \"position\" and \"chosen\" and a \"layers\" array");
    }
    LogitLens lens;
    lens.position = j["position"].get<int64_t>();
    const int64_t chosen = j["chosen"].get<int64_t>();
    if (chosen < -1 || chosen > std::numeric_limits<int32_t>::max()) return bad("\"chosen\" is out of range");
    lens.chosen = static_cast<int32_t>(chosen);
    for (const nlohmann::json& l : j["layers"]) {
        if (!l.is_object() || !l.contains("top") || !l["top"].is_array()) return bad("a layer needs a \"top\" array");
        LensLayer layer;
        for (const nlohmann::json& e : l["top"]) {
            if (!e.is_object() || !e.contains("token") || !e["token"].is_number_integer() || !e.contains("prob") || !e["prob"].is_number()) {
                return bad("a top entry needs an integer \"token\" and a number \"prob\"");
            }
            const int64_t token = e["token"].get<int64_t>();
            if (token < 0 || token > std::numeric_limits<int32_t>::max()) return bad("a top token is out of range");
            layer.top.push_back({static_cast<int32_t>(token), e["prob"].get<float>()});
        }
        if (lens.chosen >= 0) {
            if (!l.contains("chosen_rank") || !l["chosen_rank"].is_number_integer() || !l.contains("chosen_prob") || !l["chosen_prob"].is_number()) {
                return bad("a layer needs \"chosen_rank\" and \"chosen_prob\" when a token was chosen");
            }
            layer.chosen_rank = l["chosen_rank"].get<int64_t>();
            layer.chosen_prob = l["chosen_prob"].get<float>();
        }
        lens.layers.push_back(std::move(layer));
    }
    return lens;
}

} // namespace octo
