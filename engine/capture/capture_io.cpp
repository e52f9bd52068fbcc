#include "engine/capture/capture_io.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_payload.h"
#include "engine/core/atomic_file.h"
#include "engine/core/le_bytes.h"

namespace octo {

namespace {

using nlohmann::json;

constexpr size_t kMaxNesting = 16;           // the payload's deepest item is 5 levels down
constexpr size_t kMaxValues = size_t{1} << 24; // a 1,000-token capture holds about 40,000

// Builds nothing; stops at the first array or map nested deeper than kMaxNesting (so that the
// recursive CBOR parser never recurses deeper than that) and after kMaxValues values (so that
// the parsed tree's memory stays bounded: a one-byte CBOR value takes tens of bytes parsed).
struct PayloadShapeCheck : json::json_sax_t {
    size_t depth = 0;
    size_t values = 0;
    bool too_deep = false;
    bool too_many = false;
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return value() && enter(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return leave(); }
    bool start_array(std::size_t) override { return value() && enter(); }
    bool end_array() override { return leave(); }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

    bool value() {
        too_many = ++values > kMaxValues;
        return !too_many;
    }
    bool enter() {
        too_deep = ++depth > kMaxNesting;
        return !too_deep;
    }
    bool leave() {
        --depth;
        return true;
    }
};

} // namespace

Result<json> parse_capture_cbor(std::string_view payload, const std::string& origin) {
    PayloadShapeCheck check;
    const bool well_formed = json::sax_parse(payload, &check, json::input_format_t::cbor, true);
    if (check.too_deep) return make_error(ErrorCode::Format, origin + ": the payload nests deeper than a capture does");
    if (check.too_many) {
        return make_error(ErrorCode::Format, origin + ": the payload holds more than " + std::to_string(kMaxValues) + " values");
    }
    if (!well_formed) return make_error(ErrorCode::Format, origin + ": the payload is not valid CBOR");
    json tree = json::from_cbor(payload, true, false);
    if (tree.is_discarded()) return make_error(ErrorCode::Format, origin + ": the payload is not valid CBOR");
    return tree;
}

Result<std::string> serialize_capture(const Capture& capture) {
    if (!capture.trace.outcome) { // a capture keeps how the run ended
        return make_error(ErrorCode::InvalidArgument, "the run has not finished: there is nothing to capture yet");
    }
    std::vector<uint8_t> cbor = json::to_cbor(encode_capture(capture));
    return pack_capture_container({reinterpret_cast<const char*>(cbor.data()), cbor.size()}, kCaptureFormatVersion);
}

Result<Capture> parse_capture(std::span<const uint8_t> bytes, const std::string& origin) {
    try {
        auto payload = unpack_capture_container(bytes, origin);
        if (!payload) return payload.error();
        auto tree = parse_capture_cbor(payload.value(), origin);
        if (!tree) return tree.error();
        return decode_capture(tree.value(), origin, capture_container_version(bytes));
    } catch (const json::exception& e) {
        return make_error(ErrorCode::Format, origin + ": the payload is not valid CBOR (" + e.what() + ")");
    }
}

Status save_capture(const Capture& capture, const std::string& path) {
    auto bytes = serialize_capture(capture);
    if (!bytes) return make_error(bytes.error().code, path + ": " + bytes.error().message);
    return write_file_atomic(path, bytes.value());
}

Result<Capture> open_capture(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return make_error(ErrorCode::Io, "cannot open capture '" + path + "': " + std::strerror(errno));
    const std::streamoff size = in.tellg();
    if (size < 0 || static_cast<uint64_t>(size) > kCaptureHeaderBytes + 2 * kCaptureMaxPayloadBytes) {
        return make_error(ErrorCode::Format, path + ": too large for a capture");
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), size)) {
        return make_error(ErrorCode::Io, "cannot read capture '" + path + "'");
    }
    return parse_capture(bytes, path);
}

uint64_t capture_payload_bytes(std::span<const uint8_t> bytes) {
    if (bytes.size() < kCaptureHeaderBytes) return 0;
    return load_le64(bytes.data() + 24);
}

} // namespace octo
