// Which subsystem (rte-a … rte-h) each attention head of a model belongs to.
//
// Heads are query heads: layer l, head h is the h-th head_dim-wide slice of layer l's attention
// output (the input of the output projection), 0 <= l < n_layer, 0 <= h < n_head.
//
// Default map (make_default): the same in every layer; each layer's H heads are cut into 8
// contiguous blocks, rte-a's first. Every subsystem gets floor(H / 8) heads and the first
// H mod 8 subsystems (rte-a, rte-b, … in that order) get one more. Examples: H = 8 → head k is
// subsystem k; H = 12 → rte-a…rte-d own 2 heads each (0-1, 2-3, 4-5, 6-7), rte-e…rte-h one
// each (8, 9, 10, 11); H = 6 → rte-a…rte-f own heads 0…5 and rte-g, rte-h are empty.
//
// JSON schema (version 1), used by map files, GGUF metadata and calibration alike:
//   {"version": 1, "layers": [["rte-a", …one id per head…], …one array per layer…]}
// Both keys are required and no other key is allowed; "layers" has exactly n_layer arrays of
// exactly n_head ids each. A subsystem may own no head at all (it is then empty).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/core/result.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

// Where a map came from (reported as the `head_map.source` field).
enum class HeadMapSource { Default, File, Gguf, Calibrated };

// "default", "file", "gguf", "calibrated"
const char* head_map_source_name(HeadMapSource source);

class HeadMap {
public:
    // The default map described above. n_layer >= 1 and n_head >= 1.
    static HeadMap make_default(int64_t n_layer, int64_t n_head);

    // Validates a version-1 document against the model's shape. Errors: ErrorCode::Format for
    // schema violations (wrong version, missing or extra key, wrong JSON type, unknown id) and
    // ErrorCode::InvalidArgument for a layer or head count that does not match the model; each
    // message names the offending layer and head (0-based). `source` and `path` are recorded.
    static Result<HeadMap> from_json(const nlohmann::json& doc, int64_t n_layer, int64_t n_head,
                                     HeadMapSource source, std::string path = {});
    // Parses JSON text (malformed text is ErrorCode::Format), then as from_json.
    static Result<HeadMap> parse(std::string_view text, int64_t n_layer, int64_t n_head,
                                 HeadMapSource source, std::string path = {});
    // Reads and parses a map file (ErrorCode::Io if unreadable); source File, path recorded.
    static Result<HeadMap> load_file(const std::string& path, int64_t n_layer, int64_t n_head);

    // The version-1 document; from_json(to_json()) gives back the same map.
    nlohmann::json to_json() const;
    // `{"source": "default|file|gguf|calibrated", "path": …}` (path null when there is none).
    nlohmann::json describe() const;

    int64_t n_layer() const { return n_layer_; }
    int64_t n_head() const { return n_head_; }
    HeadMapSource source() const { return source_; }
    const std::string& path() const { return path_; }

    // Subsystem index 0..7 of layer l, head h.
    int subsystem_of(int64_t layer, int64_t head) const;
    // The heads of `layer` that belong to `subsystem`, ascending.
    std::vector<int64_t> heads_of(int subsystem, int64_t layer) const;
    // Heads owned by each subsystem over all layers (divisor of the mean-per-head grouping).
    const std::array<int64_t, kSubsystemCount>& head_counts() const { return head_counts_; }
    bool is_empty(int subsystem) const;
    // Indices of the subsystems that own no head, ascending.
    std::vector<int> empty_subsystems() const;

private:
    HeadMap(int64_t n_layer, int64_t n_head, std::vector<uint8_t> assignment, HeadMapSource source,
            std::string path);

    int64_t n_layer_ = 0;
    int64_t n_head_ = 0;
    std::vector<uint8_t> assignment_; // [n_layer][n_head] subsystem index
    std::array<int64_t, kSubsystemCount> head_counts_{};
    HeadMapSource source_ = HeadMapSource::Default;
    std::string path_;
};

} // namespace octo
