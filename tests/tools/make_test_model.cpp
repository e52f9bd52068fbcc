// make-test-model: writes the small random-weight model the tests use
// (engine/model/synthetic_model.h, default spec) to a file, for the README's quick start.
//   make-test-model OUT.gguf [CONTEXT_LENGTH] [N_LAYER] [N_HEAD]
// (N_HEAD must divide the width, 256; docs/capture-format.md measures a 32 × 32 model made so.)
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/model/synthetic_model.h"

int main(int argc, char** argv) {
    if (argc < 2 || argc > 5 || std::string(argv[1]).starts_with("-")) {
        std::fprintf(stderr, "usage: make-test-model OUT.gguf [CONTEXT_LENGTH] [N_LAYER] [N_HEAD]\n");
        return 2;
    }
    const std::string path = argv[1];
    octo::SyntheticModelSpec spec;
    if (argc >= 3) spec.context_length = std::atoll(argv[2]);
    if (argc >= 4) spec.n_layer = std::atoll(argv[3]);
    if (argc >= 5) spec.n_head = std::atoll(argv[4]);
    if (spec.context_length < 1 || spec.n_layer < 1 || spec.n_head < 1 || spec.n_embd % spec.n_head != 0 ||
        spec.n_head % spec.n_head_kv != 0) {
        std::fprintf(stderr, "make-test-model: context length, layer and head counts must be positive, and the "
                             "head count must divide 256 and be a multiple of 2\n");
        return 2;
    }
    auto bytes = octo::make_synthetic_model(spec);
    if (!bytes) {
        std::fprintf(stderr, "make-test-model: error: %s\n", bytes.error().message.c_str());
        return 1;
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes->data(), 1, bytes->size(), f) != bytes->size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "make-test-model: error: cannot write '%s'\n", path.c_str());
        return 1;
    }
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), bytes->size());
    return 0;
}
