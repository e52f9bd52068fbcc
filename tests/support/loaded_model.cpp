#include "tests/support/loaded_model.h"

#include <gtest/gtest.h>

#include "engine/gguf/gguf_file.h"

namespace octo::test {

LoadedModel load_bytes(std::vector<uint8_t> bytes) {
    LoadedModel m;
    m.bytes = std::move(bytes);
    auto file = GgufFile::parse(m.bytes);
    EXPECT_TRUE(file) << file.error().message;
    if (!file) return m;
    auto model = Model::from_gguf(std::move(file.value()));
    EXPECT_TRUE(model) << model.error().message;
    if (model) m.model = std::move(model.value());
    return m;
}

LoadedModel load_synthetic(const SyntheticModelSpec& spec) {
    auto bytes = make_synthetic_model(spec);
    EXPECT_TRUE(bytes) << bytes.error().message;
    if (!bytes) return {};
    return load_bytes(std::move(bytes.value()));
}

} // namespace octo::test
