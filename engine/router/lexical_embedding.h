// A text embedding that needs no model (router stage 1, docs/router.md): hashed character
// n-grams (n = 1…3 over Unicode code points, so it works for Chinese without word
// segmentation) with TF-IDF weights, L2-normalised.
//
//   normalise: ASCII letters lower-cased, every decimal digit mapped to '0', runs of whitespace
//              to one space
//   n-grams:   every run of n consecutive code points, n = 1, 2, 3
//   bucket:    XXH3-64(n-gram's UTF-8, seed n) mod kDims
//   weight:    (1 + ln tf) · idf, idf = ln((N + 1) / (df + 1)) + 1 over the fitting corpus
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/router/text_embedding.h"

namespace octo {

class LexicalEmbedding final : public TextEmbedding {
public:
    static constexpr int kDims = 1 << 14;

    // Document frequencies from a corpus (the train probes).
    static LexicalEmbedding fit_corpus(std::span<const std::string> corpus);

    const char* name() const override { return "lexical"; }
    void fit(std::span<const std::string> corpus) override { *this = fit_corpus(corpus); }
    // [kDims], unit length (all zero for a text with no characters).
    std::vector<float> embed(std::string_view text) const override;

    // The bucket counts of a text's n-grams (sparse: bucket, count), for tests.
    static std::vector<std::pair<int, int>> ngram_counts(std::string_view text);

private:
    std::vector<float> idf_; // [kDims]
};

// Cosine of two unit vectors (their dot product).
float cosine(std::span<const float> a, std::span<const float> b);

} // namespace octo
