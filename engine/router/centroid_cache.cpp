#include "engine/router/centroid_cache.h"

#include <cstring>
#include <fstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/core/sha256.h"
#include "engine/model/user_data.h"

namespace octo {

namespace {

std::filesystem::path cache_path(const std::string& cache_id) { return centroid_cache_dir() / (cache_id + ".json"); }

} // namespace

std::filesystem::path centroid_cache_dir() { return user_data_dir() / "router-centroids"; }

std::string probe_set_digest(std::span<const Probe> probes) {
    // Label and length before each text, so that no two probe sets give the same bytes.
    std::vector<uint8_t> bytes;
    for (const Probe& p : probes) {
        const uint64_t n = p.text.size();
        uint8_t header[1 + sizeof n];
        header[0] = static_cast<uint8_t>(p.label);
        std::memcpy(header + 1, &n, sizeof n);
        bytes.insert(bytes.end(), header, header + sizeof header);
        bytes.insert(bytes.end(), p.text.begin(), p.text.end());
    }
    return sha256_hex(bytes);
}

std::optional<Centroids> load_cached_centroids(const std::string& cache_id, const std::string& probes_digest) {
    std::ifstream in(cache_path(cache_id));
    if (!in) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    // Comparisons of JSON values never throw, whatever type a corrupt file holds.
    const auto field = [&](const char* key) { return j.contains(key) ? j.at(key) : nlohmann::json(); };
    if (field("version") != nlohmann::json(kCentroidCacheVersion) || field("embedding") != nlohmann::json(cache_id) ||
        field("probes") != nlohmann::json(probes_digest)) {
        return std::nullopt;
    }
    const nlohmann::json dims = field("dims");
    const nlohmann::json rows = field("centroids");
    if (!dims.is_number_unsigned() || dims.get<size_t>() == 0 || !rows.is_array() ||
        rows.size() != static_cast<size_t>(kSubsystemCount)) {
        return std::nullopt;
    }
    Centroids c;
    for (size_t k = 0; k < c.size(); ++k) {
        const nlohmann::json& row = rows[k];
        if (!row.is_array() || row.size() != dims.get<size_t>()) return std::nullopt;
        c[k].reserve(row.size());
        for (const nlohmann::json& v : row) {
            if (!v.is_number()) return std::nullopt;
            c[k].push_back(v.get<float>());
        }
    }
    return c;
}

Status save_cached_centroids(const std::string& cache_id, const std::string& probes_digest, const Centroids& centroids) {
    const nlohmann::json j = {{"version", kCentroidCacheVersion},
                              {"embedding", cache_id},
                              {"probes", probes_digest},
                              {"dims", centroids[0].size()},
                              {"centroids", centroids}};
    return write_file_atomic(cache_path(cache_id), j.dump());
}

} // namespace octo
