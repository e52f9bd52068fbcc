#include "engine/instrumentation/head_map.h"

#include <cassert>
#include <utility>

namespace octo {

const char* head_map_source_name(HeadMapSource source) {
    switch (source) {
    case HeadMapSource::Default: return "default";
    case HeadMapSource::File: return "file";
    case HeadMapSource::Gguf: return "gguf";
    case HeadMapSource::Calibrated: return "calibrated";
    }
    return "default";
}

HeadMap::HeadMap(int64_t n_layer, int64_t n_head, std::vector<uint8_t> assignment,
                 HeadMapSource source, std::string path)
    : n_layer_(n_layer), n_head_(n_head), assignment_(std::move(assignment)), source_(source),
      path_(std::move(path)) {
    assert(static_cast<int64_t>(assignment_.size()) == n_layer_ * n_head_);
    for (uint8_t s : assignment_) ++head_counts_[s];
}

HeadMap HeadMap::make_default(int64_t n_layer, int64_t n_head) {
    assert(n_layer >= 1 && n_head >= 1);
    // One layer's row: subsystem s owns base heads, plus one if s < extra.
    const int64_t base = n_head / kSubsystemCount;
    const int64_t extra = n_head % kSubsystemCount;
    std::vector<uint8_t> row;
    row.reserve(static_cast<size_t>(n_head));
    for (int s = 0; s < kSubsystemCount; ++s) {
        const int64_t owned = base + (s < extra ? 1 : 0);
        row.insert(row.end(), static_cast<size_t>(owned), static_cast<uint8_t>(s));
    }
    std::vector<uint8_t> assignment;
    assignment.reserve(static_cast<size_t>(n_layer * n_head));
    for (int64_t l = 0; l < n_layer; ++l) assignment.insert(assignment.end(), row.begin(), row.end());
    return HeadMap(n_layer, n_head, std::move(assignment), HeadMapSource::Default, {});
}

int HeadMap::subsystem_of(int64_t layer, int64_t head) const {
    assert(layer >= 0 && layer < n_layer_ && head >= 0 && head < n_head_);
    return assignment_[static_cast<size_t>(layer * n_head_ + head)];
}

std::vector<int64_t> HeadMap::heads_of(int subsystem, int64_t layer) const {
    std::vector<int64_t> heads;
    for (int64_t h = 0; h < n_head_; ++h) {
        if (subsystem_of(layer, h) == subsystem) heads.push_back(h);
    }
    return heads;
}

bool HeadMap::is_empty(int subsystem) const {
    return head_counts_.at(static_cast<size_t>(subsystem)) == 0;
}

std::vector<int> HeadMap::empty_subsystems() const {
    std::vector<int> empty;
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (is_empty(s)) empty.push_back(s);
    }
    return empty;
}

} // namespace octo
