// Read-only view of a GGUF file (versions 2 and 3).
//
// Layout (little-endian):
//   magic "GGUF" | u32 version | u64 n_tensors | u64 n_kv
//   n_kv x { string key | u32 type | value }
//   n_tensors x { string name | u32 n_dims | u64 ne[n_dims] | u32 type | u64 offset }
//   padding to general.alignment (default 32) | tensor data
// A string is u64 length + bytes (no terminator); an array is u32 elem type + u64 count + items.
//
// Every count, length, dimension and offset read from the file is checked against the
// bytes that remain before anything is allocated, so a hostile file yields an Error
// naming the problem and its byte offset. Tensor data stays in the memory map.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_value.h"
#include "engine/gguf/tensor_type.h"

namespace octo {

struct GgufTensorInfo {
    std::string name;
    uint32_t n_dims = 0;
    int64_t ne[4] = {1, 1, 1, 1}; // elements per dimension, innermost (row length) first
    uint32_t raw_type = 0;        // type id as written in the file
    TensorTypeInfo type;          // layout of raw_type (always a known type)
    uint64_t offset = 0;          // from the start of the data section
    uint64_t n_bytes = 0;         // size of the tensor's data
    const uint8_t* data = nullptr; // inside the mapped file

    int64_t n_elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    int64_t n_rows() const { return ne[1] * ne[2] * ne[3]; }
};

class MappedBytes; // owner of the file's bytes (a memory map or a caller's buffer)

class GgufFile {
public:
    // Memory-maps the file at `path` and parses its header.
    static Result<GgufFile> open(const std::string& path);
    // Parses a GGUF image held in memory; `bytes` must outlive the GgufFile.
    static Result<GgufFile> parse(std::span<const uint8_t> bytes);

    uint32_t version() const { return version_; }
    uint64_t alignment() const { return alignment_; }
    uint64_t file_size() const { return size_; }
    uint64_t data_offset() const { return data_offset_; }

    // Metadata in file order, and lookup by key.
    const std::vector<std::pair<std::string, GgufValue>>& metadata() const { return kv_; }
    const GgufValue* find(const std::string& key) const;

    // Typed lookups: nullopt-like Error when the key is missing or has another type.
    Result<std::string> get_string(const std::string& key) const;
    Result<int64_t> get_int(const std::string& key) const;     // any integer type
    Result<double> get_float(const std::string& key) const;    // float or integer types
    Result<bool> get_bool(const std::string& key) const;
    Result<const GgufArray*> get_array(const std::string& key) const;

    const std::vector<GgufTensorInfo>& tensors() const { return tensors_; }
    const GgufTensorInfo* find_tensor(const std::string& name) const;

private:
    std::shared_ptr<const MappedBytes> bytes_;
    uint32_t version_ = 0;
    uint64_t alignment_ = 32;
    uint64_t size_ = 0;
    uint64_t data_offset_ = 0;
    std::vector<std::pair<std::string, GgufValue>> kv_;
    std::map<std::string, size_t> kv_index_;
    std::vector<GgufTensorInfo> tensors_;
    std::map<std::string, size_t> tensor_index_;

    friend class GgufParser;
};

} // namespace octo
