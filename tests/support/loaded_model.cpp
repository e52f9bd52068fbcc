#include "tests/support/loaded_model.h"

#include <gtest/gtest.h>

#include "engine/gguf/gguf_file.h"
#include "engine/gguf/gguf_writer.h"

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

std::vector<uint8_t> rewrite_model(const Model& model,
                                   const std::function<void(const GgufTensorInfo&, std::span<float>)>& edit) {
    const GgufFile& file = model.file();
    GgufWriter w;
    for (const auto& [key, value] : file.metadata()) w.add_value(key, value);
    for (const GgufTensorInfo& t : file.tensors()) {
        std::vector<uint8_t> bytes(t.data, t.data + t.n_bytes);
        if (t.type.type == TensorType::F32) {
            edit(t, std::span<float>(reinterpret_cast<float*>(bytes.data()), bytes.size() / sizeof(float)));
        }
        std::vector<int64_t> ne(t.ne, t.ne + t.n_dims);
        EXPECT_TRUE(w.add_tensor(t.name, ne, t.type.type, bytes));
    }
    return w.to_bytes();
}

} // namespace octo::test
