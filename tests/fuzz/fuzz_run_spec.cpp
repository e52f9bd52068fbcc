// Fuzz target: arbitrary bytes as a run's settings — JSON text, as an autosaved session holds
// them, or CBOR, as a capture's `settings` map — read by RunSpec's one serialiser
// (engine/capture/run_spec_json.h) with an autosave's rule (most fields may be absent) and a
// capture's (every field required). What is accepted must survive being written and read again
// unchanged (RunSpec's operator==). Any crash, sanitizer report, exception, unbounded allocation
// or a round trip that changes the spec is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_io.h"
#include "engine/capture/run_spec_json.h"

namespace {

using nlohmann::json;

bool read(const json& j, octo::RunSpec& spec, bool all_required) {
    std::string error;
    octo::FieldReader r(j, "settings", error);
    read_run_spec(r, spec, [all_required](std::string_view key) { return !all_required && key != "prompt"; });
    return error.empty();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const bool cbor = data[0] & 1;
    // CBOR as a capture's reader parses it (sizes and nesting checked first: the CBOR parser
    // recurses per level, and a bare from_cbor overflowed the stack on deep nesting).
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    json j;
    if (cbor) {
        auto parsed = octo::parse_capture_cbor(text, "settings");
        if (!parsed) return 0;
        j = std::move(parsed.value());
    } else {
        j = json::parse(text, nullptr, false);
    }
    if (j.is_discarded()) return 0;
    for (const bool all_required : {false, true}) {
        octo::RunSpec spec;
        if (!read(j, spec, all_required)) continue;
        for (const octo::ByteStrings form : {octo::ByteStrings::Binary, octo::ByteStrings::Text}) {
            const json written = run_spec_json(spec, form);
            if (form == octo::ByteStrings::Text) (void)written.dump(-1, ' ', false, json::error_handler_t::replace);
            const std::vector<uint8_t> bytes = json::to_cbor(written);
            octo::RunSpec back;
            if (!read(json::from_cbor(bytes), back, true)) std::abort(); // what was written must read
            if (form == octo::ByteStrings::Binary && !(back == spec)) std::abort(); // and be the same run
        }
    }
    return 0;
}
