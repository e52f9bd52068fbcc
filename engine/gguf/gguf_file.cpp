#include "engine/gguf/gguf_file.h"

#include <cstring>
#include <limits>

#include "engine/gguf/mapped_bytes.h"

namespace octo {

namespace {

constexpr uint32_t kMaxDims = 4;        // GGML_MAX_DIMS
constexpr int kMaxArrayNesting = 8;     // deeper nesting is refused, not recursed into
constexpr uint64_t kMaxAlignment = 1u << 20;
// Metadata arrays may hold at most this many elements in total (a 256k-token vocabulary
// needs under 1M), which bounds the memory a hostile file can make the parser allocate.
constexpr uint64_t kMaxMetadataElements = 16u << 20;

// Smallest encoding of one array element of a type, to bound counts before allocating.
uint64_t min_encoded_size(GgufType type) {
    switch (type) {
    case GgufType::UInt8: case GgufType::Int8: case GgufType::Bool: return 1;
    case GgufType::UInt16: case GgufType::Int16: return 2;
    case GgufType::UInt32: case GgufType::Int32: case GgufType::Float32: return 4;
    case GgufType::UInt64: case GgufType::Int64: case GgufType::Float64: return 8;
    case GgufType::String: return 8;  // u64 length
    case GgufType::Array: return 12;  // u32 type + u64 count
    }
    return 1;
}

bool valid_gguf_type(uint32_t t) { return t <= static_cast<uint32_t>(GgufType::Float64); }

// Little-endian cursor over the file image; every read is bounds-checked.
class Cursor {
public:
    explicit Cursor(std::span<const uint8_t> bytes) : bytes_(bytes) {}

    uint64_t pos() const { return pos_; }
    // Takes `count` from the metadata element budget; false when it is exhausted.
    bool take_elements(uint64_t count) {
        if (count > element_budget_) return false;
        element_budget_ -= count;
        return true;
    }
    uint64_t remaining() const { return bytes_.size() - pos_; }

    Error error(const std::string& what, uint64_t at) const {
        return make_error(ErrorCode::Format, "GGUF: " + what + " at byte offset " + std::to_string(at));
    }
    Error truncated(const std::string& what) const {
        return error("file is truncated: " + what + " needs bytes past the end of the file (size " +
                         std::to_string(bytes_.size()) + ")",
                     pos_);
    }

    template <class T>
    bool read(T& out) {
        if (remaining() < sizeof(T)) return false;
        std::memcpy(&out, bytes_.data() + pos_, sizeof(T));
        pos_ += sizeof(T);
        return true;
    }

    // A GGUF string: u64 length + bytes. The length is checked against what remains.
    Result<std::string> read_string(const char* what) {
        const uint64_t at = pos_;
        uint64_t len = 0;
        if (!read(len)) return truncated(std::string(what) + " length");
        if (len > remaining()) {
            return error(std::string(what) + " claims " + std::to_string(len) + " bytes but only " +
                             std::to_string(remaining()) + " remain in the file",
                         at);
        }
        std::string s(reinterpret_cast<const char*>(bytes_.data() + pos_), len);
        pos_ += len;
        return s;
    }

private:
    std::span<const uint8_t> bytes_;
    uint64_t pos_ = 0;
    uint64_t element_budget_ = kMaxMetadataElements;
};

Result<GgufArray> read_array(Cursor& c, int depth);

template <class T>
bool read_scalar_into(Cursor& c, GgufType type, GgufValue& v) {
    T raw{};
    if (!c.read(raw)) return false;
    v.type = type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        v.f = static_cast<double>(raw);
    } else if constexpr (std::is_signed_v<T>) {
        v.i = static_cast<int64_t>(raw);
    } else {
        v.u = static_cast<uint64_t>(raw);
    }
    return true;
}

Result<GgufValue> read_value(Cursor& c, GgufType type, int depth) {
    GgufValue v;
    v.type = type;
    bool ok = true;
    switch (type) {
    case GgufType::UInt8: ok = read_scalar_into<uint8_t>(c, type, v); break;
    case GgufType::Int8: ok = read_scalar_into<int8_t>(c, type, v); break;
    case GgufType::UInt16: ok = read_scalar_into<uint16_t>(c, type, v); break;
    case GgufType::Int16: ok = read_scalar_into<int16_t>(c, type, v); break;
    case GgufType::UInt32: ok = read_scalar_into<uint32_t>(c, type, v); break;
    case GgufType::Int32: ok = read_scalar_into<int32_t>(c, type, v); break;
    case GgufType::UInt64: ok = read_scalar_into<uint64_t>(c, type, v); break;
    case GgufType::Int64: ok = read_scalar_into<int64_t>(c, type, v); break;
    case GgufType::Float32: ok = read_scalar_into<float>(c, type, v); break;
    case GgufType::Float64: ok = read_scalar_into<double>(c, type, v); break;
    case GgufType::Bool: {
        uint8_t b = 0;
        ok = c.read(b);
        v.i = b != 0;
        break;
    }
    case GgufType::String: {
        auto s = c.read_string("string value");
        if (!s) return s.error();
        v.s = std::move(s.value());
        break;
    }
    case GgufType::Array: {
        auto a = read_array(c, depth + 1);
        if (!a) return a.error();
        v.array = std::make_shared<const GgufArray>(std::move(a.value()));
        break;
    }
    }
    if (!ok) return c.truncated(std::string(gguf_type_name(type)) + " value");
    return v;
}

Result<GgufArray> read_array(Cursor& c, int depth) {
    const uint64_t at = c.pos();
    if (depth > kMaxArrayNesting) {
        return c.error("arrays nested deeper than " + std::to_string(kMaxArrayNesting) + " levels", at);
    }
    uint32_t raw_type = 0;
    uint64_t count = 0;
    if (!c.read(raw_type) || !c.read(count)) return c.truncated("array header");
    if (!valid_gguf_type(raw_type)) {
        return c.error("array has unknown element type " + std::to_string(raw_type), at);
    }
    GgufArray a;
    a.elem_type = static_cast<GgufType>(raw_type);
    if (count > c.remaining() / min_encoded_size(a.elem_type)) {
        return c.error("array claims " + std::to_string(count) + " elements of type " +
                           std::string(gguf_type_name(a.elem_type)) + " but only " +
                           std::to_string(c.remaining()) + " bytes remain",
                       at);
    }
    if (!c.take_elements(count)) {
        return c.error("metadata arrays hold more than " + std::to_string(kMaxMetadataElements) +
                           " elements in total",
                       at);
    }
    const auto n = static_cast<size_t>(count);
    for (size_t k = 0; k < n; ++k) {
        auto v = read_value(c, a.elem_type, depth);
        if (!v) return v.error();
        GgufValue& e = v.value();
        switch (a.elem_type) {
        case GgufType::String: a.strings.push_back(std::move(e.s)); break;
        case GgufType::Array: a.arrays.push_back(*e.array); break;
        default:
            if (gguf_type_is_float(a.elem_type)) {
                if (k == 0) a.floats.reserve(n);
                a.floats.push_back(e.f);
            } else if (gguf_type_is_unsigned_int(a.elem_type)) {
                if (k == 0) a.uints.reserve(n);
                a.uints.push_back(e.u);
            } else {
                if (k == 0) a.ints.reserve(n);
                a.ints.push_back(e.i);
            }
        }
    }
    return a;
}

} // namespace

class GgufParser {
public:
    static Status parse(GgufFile& f) {
        const auto bytes = f.bytes_->bytes();
        Cursor c(bytes);
        f.size_ = bytes.size();

        char magic[4] = {};
        if (!c.read(magic)) return c.truncated("the GGUF magic");
        if (std::memcmp(magic, "GGUF", 4) != 0) {
            return c.error("not a GGUF file: the magic is not \"GGUF\"", 0);
        }
        if (!c.read(f.version_)) return c.truncated("the version");
        if (f.version_ == 1) {
            return make_error(ErrorCode::Unsupported,
                              "GGUF: version 1 files are not supported (only versions 2 and 3), at byte offset 4");
        }
        if (f.version_ < 2 || f.version_ > 3) {
            return c.error("unsupported GGUF version " + std::to_string(f.version_) +
                               " (this reader handles versions 2 and 3)",
                           4);
        }
        uint64_t n_tensors = 0, n_kv = 0;
        if (!c.read(n_tensors)) return c.truncated("the tensor count");
        if (!c.read(n_kv)) return c.truncated("the metadata count");

        // Smallest key/value: u64 key length + u32 type + 1 byte value.
        if (n_kv > c.remaining() / 13) {
            return c.error("metadata count " + std::to_string(n_kv) + " is larger than the file can hold", 16);
        }
        if (auto s = read_metadata(c, f, n_kv); !s) return s;

        // Smallest tensor info: name length + n_dims + one dim + type + offset.
        if (n_tensors > c.remaining() / 32) {
            return c.error("tensor count " + std::to_string(n_tensors) + " is larger than the file can hold", 8);
        }
        if (auto s = read_alignment(f); !s) return s;
        if (auto s = read_tensor_infos(c, f, n_tensors); !s) return s;
        return place_tensor_data(c, f);
    }

private:
    static Status read_metadata(Cursor& c, GgufFile& f, uint64_t n_kv) {
        for (uint64_t k = 0; k < n_kv; ++k) {
            const uint64_t at = c.pos();
            auto key = c.read_string("metadata key");
            if (!key) return key.error();
            uint32_t raw_type = 0;
            const uint64_t type_at = c.pos();
            if (!c.read(raw_type)) return c.truncated("the type of metadata key '" + key.value() + "'");
            if (!valid_gguf_type(raw_type)) {
                return c.error("metadata key '" + key.value() + "' has unknown value type " +
                                   std::to_string(raw_type),
                               type_at);
            }
            auto value = read_value(c, static_cast<GgufType>(raw_type), 0);
            if (!value) return value.error();
            if (f.kv_index_.count(key.value())) {
                return c.error("duplicate metadata key '" + key.value() + "'", at);
            }
            f.kv_index_.emplace(key.value(), f.kv_.size());
            f.kv_.emplace_back(std::move(key.value()), std::move(value.value()));
        }
        return Ok{};
    }

    static Status read_alignment(GgufFile& f) {
        const GgufValue* v = f.find("general.alignment");
        if (!v) return Ok{};
        if (v->type != GgufType::UInt32) {
            return make_error(ErrorCode::Format, "GGUF: general.alignment must be a u32, not " +
                                                     std::string(gguf_type_name(v->type)));
        }
        if (v->u == 0 || (v->u & (v->u - 1)) != 0 || v->u > kMaxAlignment) {
            return make_error(ErrorCode::Format, "GGUF: general.alignment " + std::to_string(v->u) +
                                                     " is not a power of two up to " +
                                                     std::to_string(kMaxAlignment));
        }
        f.alignment_ = v->u;
        return Ok{};
    }

    static Status read_tensor_infos(Cursor& c, GgufFile& f, uint64_t n_tensors) {
        for (uint64_t k = 0; k < n_tensors; ++k) {
            const uint64_t at = c.pos();
            GgufTensorInfo t;
            auto name = c.read_string("tensor name");
            if (!name) return name.error();
            t.name = std::move(name.value());
            const std::string quoted = "tensor '" + t.name + "'";
            const uint64_t dims_at = c.pos();
            if (!c.read(t.n_dims)) return c.truncated(quoted + " dimension count");
            if (t.n_dims == 0 || t.n_dims > kMaxDims) {
                return c.error(quoted + " has " + std::to_string(t.n_dims) + " dimensions (1 to 4 allowed)", dims_at);
            }
            // Product of the nonzero dimensions: bounds every partial product callers form
            // (n_rows() = ne[1]*ne[2]*ne[3] even when ne[0] is 0).
            constexpr auto kMaxElements = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
            uint64_t nonzero_product = 1;
            for (uint32_t d = 0; d < t.n_dims; ++d) {
                const uint64_t dim_at = c.pos();
                uint64_t ne = 0;
                if (!c.read(ne)) return c.truncated(quoted + " dimensions");
                if (ne > kMaxElements || (ne != 0 && nonzero_product > kMaxElements / ne)) {
                    return c.error(quoted + " has dimensions whose product overflows", dim_at);
                }
                if (ne != 0) nonzero_product *= ne;
                t.ne[d] = static_cast<int64_t>(ne);
            }
            const uint64_t type_at = c.pos();
            if (!c.read(t.raw_type)) return c.truncated(quoted + " type");
            auto info = tensor_type_info(t.raw_type);
            if (!info) {
                return c.error(quoted + " has unknown tensor type id " + std::to_string(t.raw_type), type_at);
            }
            t.type = *info;
            auto row_bytes = tensor_row_bytes(t.type, static_cast<uint64_t>(t.ne[0]));
            if (!row_bytes) {
                return c.error(quoted + " of type " + std::string(t.type.name) + " has rows of " +
                                   std::to_string(t.ne[0]) + " values, not a multiple of the block size " +
                                   std::to_string(t.type.block_size),
                               dims_at);
            }
            const auto n_rows = static_cast<uint64_t>(t.n_rows());
            if (n_rows != 0 && *row_bytes > std::numeric_limits<uint64_t>::max() / n_rows) {
                return c.error(quoted + " byte size overflows", dims_at);
            }
            t.n_bytes = *row_bytes * n_rows;
            const uint64_t offset_at = c.pos();
            if (!c.read(t.offset)) return c.truncated(quoted + " data offset");
            if (t.offset % f.alignment_ != 0) {
                return c.error(quoted + " data offset " + std::to_string(t.offset) +
                                   " is not a multiple of the alignment " + std::to_string(f.alignment_),
                               offset_at);
            }
            if (f.tensor_index_.count(t.name)) return c.error("duplicate " + quoted, at);
            f.tensor_index_.emplace(t.name, f.tensors_.size());
            f.tensors_.push_back(std::move(t));
        }
        return Ok{};
    }

    static Status place_tensor_data(Cursor& c, GgufFile& f) {
        const uint64_t end_of_infos = c.pos();
        const uint64_t padded = (end_of_infos + f.alignment_ - 1) / f.alignment_ * f.alignment_;
        f.data_offset_ = padded;
        if (f.tensors_.empty()) return Ok{};
        if (padded > f.size_) {
            return c.error("file is truncated: the tensor data section starts past the end of the file",
                           end_of_infos);
        }
        const uint64_t data_size = f.size_ - padded;
        const uint8_t* base = f.bytes_->bytes().data() + padded;
        for (auto& t : f.tensors_) {
            if (t.offset > data_size || t.n_bytes > data_size - t.offset) {
                return c.error("tensor '" + t.name + "' data (" + std::to_string(t.n_bytes) + " bytes at data offset " +
                                   std::to_string(t.offset) + ") runs past the end of the file",
                               padded + std::min(t.offset, data_size));
            }
            t.data = base + t.offset;
        }
        return Ok{};
    }
};

Result<GgufFile> GgufFile::open(const std::string& path) {
    auto bytes = MappedBytes::map_file(path);
    if (!bytes) return bytes.error();
    GgufFile f;
    f.bytes_ = std::move(bytes.value());
    if (auto s = GgufParser::parse(f); !s) {
        Error e = s.error();
        e.message = path + ": " + e.message;
        return e;
    }
    return f;
}

Result<GgufFile> GgufFile::parse(std::span<const uint8_t> bytes) {
    GgufFile f;
    f.bytes_ = MappedBytes::borrow(bytes);
    if (auto s = GgufParser::parse(f); !s) return s.error();
    return f;
}

const GgufValue* GgufFile::find(const std::string& key) const {
    auto it = kv_index_.find(key);
    return it == kv_index_.end() ? nullptr : &kv_[it->second].second;
}

namespace {

Error missing_key(const std::string& key) {
    return make_error(ErrorCode::InvalidModel, "metadata key '" + key + "' is missing");
}

Error wrong_type(const std::string& key, GgufType have, const char* want) {
    return make_error(ErrorCode::InvalidModel, "metadata key '" + key + "' is a " +
                                                   std::string(gguf_type_name(have)) + ", expected " + want);
}

} // namespace

Result<std::string> GgufFile::get_string(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return missing_key(key);
    if (v->type != GgufType::String) return wrong_type(key, v->type, "a string");
    return v->s;
}

Result<int64_t> GgufFile::get_int(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return missing_key(key);
    int64_t out = 0;
    if (!v->as_int(out)) return wrong_type(key, v->type, "an integer that fits in 64 bits");
    return out;
}

Result<double> GgufFile::get_float(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return missing_key(key);
    if (gguf_type_is_float(v->type)) return v->f;
    int64_t out = 0;
    if (v->as_int(out)) return static_cast<double>(out);
    return wrong_type(key, v->type, "a number");
}

Result<bool> GgufFile::get_bool(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return missing_key(key);
    if (v->type != GgufType::Bool) return wrong_type(key, v->type, "a bool");
    return v->i != 0;
}

Result<const GgufArray*> GgufFile::get_array(const std::string& key) const {
    const GgufValue* v = find(key);
    if (!v) return missing_key(key);
    if (v->type != GgufType::Array) return wrong_type(key, v->type, "an array");
    return v->array.get();
}

const GgufTensorInfo* GgufFile::find_tensor(const std::string& name) const {
    auto it = tensor_index_.find(name);
    return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

} // namespace octo
