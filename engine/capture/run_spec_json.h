// RunSpec's one serialised form, shared by captures (the "settings" map, docs/capture-format.md)
// and the workbench's autosave (docs/autosave.md): one flat object, a key per field.
//
// Both directions walk each part of RunSpec with a structured binding of all its members, so a
// field added to a part and not named here stops the build; the round-trip test walks the same
// list and changes one field at a time (tests/engine/generation/test_run_spec.cpp).
#pragma once

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_fields.h"
#include "engine/generation/run_spec.h"

namespace octo {

// How texts that may hold any bytes (prompt, system, stop strings, message contents) are written:
// CBOR byte strings in a capture, UTF-8 text strings in a JSON file (invalid UTF-8 replaced when
// dumped). The reader takes either.
enum class ByteStrings { Binary, Text };

nlohmann::json run_spec_json(const RunSpec& spec, ByteStrings bytes);

// Reads the object `r` reads into `spec`. A field for which `may_be_absent(key)` is true keeps
// spec's value when it is absent (fields newer than the file's format); every other field must
// be there. Problems are recorded in `r` (the first one, naming the field): a wrong type, a value
// out of range, an unknown name, invalid sampling settings. Precision "default" reads as nullopt.
void read_run_spec(FieldReader& r, RunSpec& spec, const std::function<bool(std::string_view key)>& may_be_absent);

// Every key run_spec_json writes, in its order (the tests and the format documentation).
std::vector<std::string_view> run_spec_keys();

} // namespace octo
