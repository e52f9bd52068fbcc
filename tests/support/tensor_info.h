// A 2-D GGUF tensor description over caller-owned bytes, for tests of code that reads tensors.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "engine/gguf/gguf_file.h"

namespace octo::test {

inline GgufTensorInfo tensor_info(std::string name, TensorType type, int64_t n_in, int64_t n_rows, const uint8_t* data) {
    GgufTensorInfo t;
    t.name = std::move(name);
    t.n_dims = 2;
    t.ne[0] = n_in;
    t.ne[1] = n_rows;
    t.type = *tensor_type_info(static_cast<uint32_t>(type));
    t.data = data;
    return t;
}

} // namespace octo::test
