// What router stage 1 needs from an embedding: refit on the labelled corpus (the lexical one
// learns document frequencies; a model's needs nothing) and map a text to a unit vector.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

class TextEmbedding {
public:
    virtual ~TextEmbedding() = default;
    virtual const char* name() const = 0; // "lexical", "model"
    virtual void fit(std::span<const std::string> corpus) = 0;
    virtual std::vector<float> embed(std::string_view text) const = 0;
    // Names this embedding function across runs, so that centroids fitted with it can be cached
    // on disk (centroid_cache.h); empty: not cached (cheap to recompute, or caching is off).
    virtual std::string cache_id() const { return {}; }
};

} // namespace octo
