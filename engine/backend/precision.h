// How a matrix product treats its activations (docs/performance.md, "Precision").
//
//   reference  as llama.cpp's CPU backend computes it, so that tokens match what the user's
//              llama.cpp-based tools produce: before a product with a quantised weight, each
//              activation row is quantised to the weight type's dot-product partner (Q8_0 for
//              Q4_0/Q5_0/Q8_0, Q8_1 for Q4_1/Q5_1, Q8_K for the K-quants) and multiplied in
//              integers; F16 and BF16 weights see activations rounded to F16 / BF16. F32 weights
//              are multiplied in float either way.
//   exact      activations stay F32; weights are dequantised and multiplied in float (the
//              product of the weights as stored and the activations as computed).
//
// Models without a reference engine (octet, the built-in teaching model) default to exact.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace octo {

enum class Precision : uint8_t {
    Reference,
    Exact,
};

std::string_view precision_name(Precision precision); // "reference", "exact"
std::optional<Precision> parse_precision(std::string_view name);

// The precision a run of an `architecture` model takes when none is asked for: exact for
// octet (no reference engine runs it), reference for everything else.
Precision default_precision(std::string_view architecture);

// The precision a run takes: the one asked for, else the architecture's default.
inline Precision resolve_precision(std::optional<Precision> asked, std::string_view architecture) {
    return asked.value_or(default_precision(architecture));
}

} // namespace octo
