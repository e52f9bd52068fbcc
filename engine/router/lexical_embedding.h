// A text embedding that needs no model (router stage 1, docs/router.md): hashed character
// n-grams (n = 1…3 over Unicode code points, so it works for Chinese without word
// segmentation) with TF-IDF weights, plus one concept dimension per feature of a rule file
// (each feature's patterns are a bilingual word class, so "rewrite", "润色" and "改写" meet
// on one dimension), L2-normalised.
//
//   normalise: ASCII letters lower-cased, every decimal digit mapped to '0', runs of whitespace
//              to one space
//   n-grams:   every run of n consecutive code points, n = 1, 2, 3
//   bucket:    XXH3-64(n-gram's UTF-8, seed n) mod kDims
//   weight:    (1 + ln tf) · idf, idf = ln((N + 1) / (df + 1)) + 1 over the fitting corpus
//   vector:    [ n-gram part, L2-normalised (kDims) | concept_weight · feature values (F) ],
//              then L2-normalised as a whole
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/router/feature_rules.h"
#include "engine/router/text_embedding.h"

namespace octo {

class LexicalEmbedding final : public TextEmbedding {
public:
    static constexpr int kDims = 1 << 14;
    // The concept part's weight, chosen by template-fold cross-validation on the train split
    // (docs/router.md, "Tuning"); never on dev.
    static constexpr double kConceptWeight = 0.3;

    // Without `concepts` the embedding is the n-gram part alone.
    explicit LexicalEmbedding(std::shared_ptr<const FeatureRules> concepts = nullptr,
                              double concept_weight = kConceptWeight);

    const char* name() const override { return "lexical"; }
    // Document frequencies from a corpus (the train probes).
    void fit(std::span<const std::string> corpus) override;
    // [kDims + number of concept features], unit length (all zero for a text with no
    // characters and no concept).
    std::vector<float> embed(std::string_view text) const override;
    // The same vector from the concept rules' scores of `text`, for a caller that has scored
    // it already (the router's stage 2 needs the scores too); `concept_scores` must come from
    // rules equal to this embedding's.
    std::vector<float> embed(std::string_view text, const FeatureScores& concept_scores) const;

    // The bucket counts of a text's n-grams (sparse: bucket, count), for tests.
    static std::vector<std::pair<int, int>> ngram_counts(std::string_view text);

private:
    std::shared_ptr<const FeatureRules> concepts_;
    double concept_weight_ = kConceptWeight;
    std::vector<float> idf_; // [kDims]
};

// Cosine of two unit vectors (their dot product).
float cosine(std::span<const float> a, std::span<const float> b);

} // namespace octo
