#include "engine/router/lexical_embedding.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <xxhash.h>

#include "engine/tokenizer/utf8.h"

namespace octo {

namespace {

std::vector<uint32_t> normalise(std::string_view text) {
    std::vector<uint32_t> out;
    bool space = false;
    for (uint32_t cp : decode_utf8(text)) {
        if (cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || cp == 0x3000) {
            space = !out.empty();
            continue;
        }
        if (space) out.push_back(' ');
        space = false;
        if (cp >= 'A' && cp <= 'Z') cp += 'a' - 'A';
        if (cp >= '0' && cp <= '9') cp = '0';
        if (cp >= 0xFF10 && cp <= 0xFF19) cp = '0'; // full-width digits
        out.push_back(cp);
    }
    return out;
}

} // namespace

std::vector<std::pair<int, int>> LexicalEmbedding::ngram_counts(std::string_view text) {
    const std::vector<uint32_t> cps = normalise(text);
    std::map<int, int> counts;
    std::string gram;
    for (size_t n = 1; n <= 3; ++n) {
        for (size_t i = 0; i + n <= cps.size(); ++i) {
            gram.clear();
            for (size_t k = i; k < i + n; ++k) append_utf8(cps[k], gram);
            const auto bucket = static_cast<int>(XXH3_64bits_withSeed(gram.data(), gram.size(), n) % kDims);
            counts[bucket] += 1;
        }
    }
    return {counts.begin(), counts.end()};
}

LexicalEmbedding::LexicalEmbedding(std::shared_ptr<const FeatureRules> concepts, double concept_weight)
    : concepts_(std::move(concepts)), concept_weight_(concept_weight), idf_(kDims, 1.0f) {}

void LexicalEmbedding::fit(std::span<const std::string> corpus) {
    std::vector<int> df(kDims, 0);
    for (const std::string& doc : corpus) {
        for (const auto& [bucket, count] : ngram_counts(doc)) df[static_cast<size_t>(bucket)] += 1;
    }
    const double n = static_cast<double>(corpus.size());
    for (int b = 0; b < kDims; ++b) {
        idf_[static_cast<size_t>(b)] = static_cast<float>(std::log((n + 1.0) / (df[static_cast<size_t>(b)] + 1.0)) + 1.0);
    }
}

std::vector<float> LexicalEmbedding::embed(std::string_view text) const {
    return embed(text, concepts_ ? concepts_->score(text) : FeatureScores{});
}

std::vector<float> LexicalEmbedding::embed(std::string_view text, const FeatureScores& concept_scores) const {
    const size_t n_concepts = concepts_ ? concepts_->size() : 0;
    const auto dims = static_cast<size_t>(kDims);
    std::vector<float> v(dims + n_concepts, 0.0f);
    double norm = 0.0;
    for (const auto& [bucket, count] : ngram_counts(text)) {
        const float w = (1.0f + std::log(static_cast<float>(count))) * idf_[static_cast<size_t>(bucket)];
        v[static_cast<size_t>(bucket)] = w;
        norm += static_cast<double>(w) * w;
    }
    // The n-gram part at unit length, then the concept part beside it.
    const double ngram_scale = norm > 0.0 ? 1.0 / std::sqrt(norm) : 0.0;
    double total = norm * ngram_scale * ngram_scale;
    if (n_concepts > 0) {
        const std::vector<double>& values = concept_scores.values;
        for (size_t i = 0; i < n_concepts; ++i) {
            const double c = i < values.size() ? concept_weight_ * values[i] : 0.0;
            v[dims + i] = static_cast<float>(c);
            total += c * c;
        }
    }
    if (total > 0.0) {
        const double inv = 1.0 / std::sqrt(total);
        for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(v[i] * (i < dims ? ngram_scale * inv : inv));
    }
    return v;
}

float cosine(std::span<const float> a, std::span<const float> b) {
    double dot = 0.0;
    for (size_t i = 0; i < a.size() && i < b.size(); ++i) dot += static_cast<double>(a[i]) * b[i];
    return static_cast<float>(dot);
}

} // namespace octo
