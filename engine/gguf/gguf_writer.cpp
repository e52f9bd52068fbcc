#include "engine/gguf/gguf_writer.h"

#include <bit>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "engine/core/le_bytes.h"
#include "engine/gguf/quantize.h"

namespace octo {

namespace {

constexpr uint64_t kDefaultAlignment = 32;

// Appends little-endian GGUF fields to a byte vector.
class ByteSink {
public:
    std::vector<uint8_t> out;

    void u8(uint8_t v) { out.push_back(v); }
    void u16(uint16_t v) { store_le16(grow(2), v); }
    void u32(uint32_t v) { store_le32(grow(4), v); }
    void u64(uint64_t v) { store_le64(grow(8), v); }
    void f32(float v) { store_le_f32(grow(4), v); }
    void f64(double v) { store_le64(grow(8), std::bit_cast<uint64_t>(v)); }
    void str(const std::string& s) {
        u64(s.size());
        out.insert(out.end(), s.begin(), s.end());
    }
    void bytes(std::span<const uint8_t> b) { out.insert(out.end(), b.begin(), b.end()); }
    void pad_to(uint64_t alignment) {
        while (out.size() % alignment != 0) out.push_back(0);
    }

private:
    uint8_t* grow(size_t n) {
        out.resize(out.size() + n);
        return out.data() + out.size() - n;
    }
};

// One scalar of `type`, taken from whichever field holds it.
void write_scalar(ByteSink& w, GgufType type, uint64_t u, int64_t i, double f) {
    switch (type) {
    case GgufType::UInt8: w.u8(static_cast<uint8_t>(u)); break;
    case GgufType::Int8: w.u8(static_cast<uint8_t>(i)); break;
    case GgufType::UInt16: w.u16(static_cast<uint16_t>(u)); break;
    case GgufType::Int16: w.u16(static_cast<uint16_t>(i)); break;
    case GgufType::UInt32: w.u32(static_cast<uint32_t>(u)); break;
    case GgufType::Int32: w.u32(static_cast<uint32_t>(i)); break;
    case GgufType::UInt64: w.u64(u); break;
    case GgufType::Int64: w.u64(static_cast<uint64_t>(i)); break;
    case GgufType::Float32: w.f32(static_cast<float>(f)); break;
    case GgufType::Float64: w.f64(f); break;
    case GgufType::Bool: w.u8(static_cast<uint8_t>(i)); break;
    case GgufType::String:
    case GgufType::Array: break; // not scalars
    }
}

// Array body: u32 element type | u64 count | items.
void write_array(ByteSink& w, const GgufArray& a) {
    w.u32(static_cast<uint32_t>(a.elem_type));
    w.u64(a.size());
    if (a.elem_type == GgufType::String) {
        for (const auto& s : a.strings) w.str(s);
    } else if (a.elem_type == GgufType::Array) {
        for (const auto& inner : a.arrays) write_array(w, inner);
    } else if (gguf_type_is_unsigned_int(a.elem_type)) {
        for (uint64_t v : a.uints) write_scalar(w, a.elem_type, v, 0, 0.0);
    } else if (gguf_type_is_float(a.elem_type)) {
        for (double v : a.floats) write_scalar(w, a.elem_type, 0, 0, v);
    } else { // signed integers and Bool
        for (int64_t v : a.ints) write_scalar(w, a.elem_type, 0, v, 0.0);
    }
}

void write_value(ByteSink& w, const GgufValue& v) {
    if (v.type == GgufType::String) {
        w.str(v.s);
    } else if (v.type == GgufType::Array) {
        write_array(w, v.array ? *v.array : GgufArray{});
    } else {
        write_scalar(w, v.type, v.u, v.i, v.f);
    }
}

GgufValue unsigned_value(GgufType type, uint64_t u) {
    GgufValue v;
    v.type = type;
    v.u = u;
    return v;
}

GgufValue signed_value(GgufType type, int64_t i) {
    GgufValue v;
    v.type = type;
    v.i = i;
    return v;
}

GgufValue float_value(GgufType type, double f) {
    GgufValue v;
    v.type = type;
    v.f = f;
    return v;
}

} // namespace

void GgufWriter::set_alignment(uint32_t alignment) {
    for (auto& [key, value] : kv_) {
        if (key == "general.alignment") {
            value = unsigned_value(GgufType::UInt32, alignment);
            return;
        }
    }
    add_u32("general.alignment", alignment);
}

void GgufWriter::add_u8(const std::string& key, uint8_t v) { add_value(key, unsigned_value(GgufType::UInt8, v)); }
void GgufWriter::add_i8(const std::string& key, int8_t v) { add_value(key, signed_value(GgufType::Int8, v)); }
void GgufWriter::add_u16(const std::string& key, uint16_t v) { add_value(key, unsigned_value(GgufType::UInt16, v)); }
void GgufWriter::add_i16(const std::string& key, int16_t v) { add_value(key, signed_value(GgufType::Int16, v)); }
void GgufWriter::add_u32(const std::string& key, uint32_t v) { add_value(key, unsigned_value(GgufType::UInt32, v)); }
void GgufWriter::add_i32(const std::string& key, int32_t v) { add_value(key, signed_value(GgufType::Int32, v)); }
void GgufWriter::add_u64(const std::string& key, uint64_t v) { add_value(key, unsigned_value(GgufType::UInt64, v)); }
void GgufWriter::add_i64(const std::string& key, int64_t v) { add_value(key, signed_value(GgufType::Int64, v)); }
void GgufWriter::add_f32(const std::string& key, float v) { add_value(key, float_value(GgufType::Float32, v)); }
void GgufWriter::add_f64(const std::string& key, double v) { add_value(key, float_value(GgufType::Float64, v)); }
void GgufWriter::add_bool(const std::string& key, bool v) { add_value(key, signed_value(GgufType::Bool, v ? 1 : 0)); }

void GgufWriter::add_string(const std::string& key, const std::string& v) {
    GgufValue value;
    value.type = GgufType::String;
    value.s = v;
    add_value(key, std::move(value));
}

void GgufWriter::add_array_strings(const std::string& key, const std::vector<std::string>& v) {
    GgufArray a;
    a.elem_type = GgufType::String;
    a.strings = v;
    add_array(key, std::move(a));
}

void GgufWriter::add_array_f32(const std::string& key, std::span<const float> v) {
    GgufArray a;
    a.elem_type = GgufType::Float32;
    a.floats.assign(v.begin(), v.end());
    add_array(key, std::move(a));
}

void GgufWriter::add_array_i32(const std::string& key, std::span<const int32_t> v) {
    GgufArray a;
    a.elem_type = GgufType::Int32;
    a.ints.assign(v.begin(), v.end());
    add_array(key, std::move(a));
}

void GgufWriter::add_array(const std::string& key, GgufArray array) {
    GgufValue value;
    value.type = GgufType::Array;
    value.array = std::make_shared<const GgufArray>(std::move(array));
    add_value(key, std::move(value));
}

void GgufWriter::add_value(const std::string& key, GgufValue value) {
    kv_.emplace_back(key, std::move(value));
}

Status GgufWriter::add_tensor(const std::string& name, const std::vector<int64_t>& ne,
                              TensorType type, std::span<const uint8_t> bytes) {
    if (ne.empty() || ne.size() > 4) {
        return make_error(ErrorCode::InvalidArgument, "tensor '" + name + "' needs 1 to 4 dims");
    }
    const auto info = tensor_type_info(static_cast<uint32_t>(type));
    uint64_t rows = 1;
    for (size_t d = 1; d < ne.size(); ++d) rows *= static_cast<uint64_t>(ne[d]);
    const auto row_bytes = info ? tensor_row_bytes(*info, static_cast<uint64_t>(ne[0])) : std::nullopt;
    if (!row_bytes || *row_bytes * rows != bytes.size()) {
        return make_error(ErrorCode::InvalidArgument,
                          "tensor '" + name + "': " + std::to_string(bytes.size()) +
                              " bytes do not match its shape and type");
    }
    add_tensor_raw(name, ne, static_cast<uint32_t>(type), {bytes.begin(), bytes.end()});
    return Ok{};
}

Status GgufWriter::add_tensor_f32(const std::string& name, const std::vector<int64_t>& ne,
                                  TensorType type, const float* values) {
    const auto info = tensor_type_info(static_cast<uint32_t>(type));
    if (!info || !info->supported) {
        return make_error(ErrorCode::Unsupported, "cannot quantise tensor '" + name + "' to this type");
    }
    if (ne.empty() || ne.size() > 4 || ne[0] <= 0) {
        return make_error(ErrorCode::InvalidArgument, "tensor '" + name + "' needs 1 to 4 dims");
    }
    const auto row_bytes = tensor_row_bytes(*info, static_cast<uint64_t>(ne[0]));
    if (!row_bytes) {
        return make_error(ErrorCode::InvalidArgument,
                          "tensor '" + name + "': row length is not a multiple of the block size");
    }
    int64_t rows = 1;
    for (size_t d = 1; d < ne.size(); ++d) rows *= ne[d];
    std::vector<uint8_t> bytes(*row_bytes * static_cast<uint64_t>(rows)); // [rows][row_bytes]
    for (int64_t r = 0; r < rows; ++r) {
        quantize_row(type, values + r * ne[0], bytes.data() + static_cast<uint64_t>(r) * *row_bytes, ne[0]);
    }
    add_tensor_raw(name, ne, static_cast<uint32_t>(type), std::move(bytes));
    return Ok{};
}

void GgufWriter::add_tensor_raw(const std::string& name, const std::vector<int64_t>& ne,
                                uint32_t raw_type, std::vector<uint8_t> bytes) {
    tensors_.push_back(Tensor{name, ne, raw_type, std::move(bytes)});
}

uint64_t GgufWriter::alignment() const {
    for (const auto& [key, value] : kv_) {
        if (key != "general.alignment") continue;
        int64_t a = 0;
        if (value.as_int(a) && a > 0) return static_cast<uint64_t>(a);
        break;
    }
    return kDefaultAlignment;
}

std::vector<uint8_t> GgufWriter::to_bytes() const {
    const uint64_t align = alignment();
    ByteSink w;
    w.u32(0x46554747u); // "GGUF"
    w.u32(version_);
    w.u64(tensors_.size());
    w.u64(kv_.size());
    for (const auto& [key, value] : kv_) {
        w.str(key);
        w.u32(static_cast<uint32_t>(value.type));
        write_value(w, value);
    }
    uint64_t offset = 0; // from the start of the data section
    for (const auto& t : tensors_) {
        w.str(t.name);
        w.u32(static_cast<uint32_t>(t.ne.size()));
        for (int64_t n : t.ne) w.u64(static_cast<uint64_t>(n));
        w.u32(t.raw_type);
        w.u64(offset);
        offset += (t.bytes.size() + align - 1) / align * align;
    }
    w.pad_to(align);
    for (const auto& t : tensors_) {
        w.bytes(t.bytes);
        w.pad_to(align);
    }
    return std::move(w.out);
}

Status GgufWriter::write_file(const std::string& path) const {
    const std::vector<uint8_t> bytes = to_bytes();
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return make_error(ErrorCode::Io, "cannot create '" + path + "'");
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    const bool closed = std::fclose(f) == 0;
    if (!written || !closed) return make_error(ErrorCode::Io, "cannot write '" + path + "'");
    return Ok{};
}

} // namespace octo
