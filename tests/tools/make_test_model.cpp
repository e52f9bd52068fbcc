// make-test-model: writes the small random-weight test model the engine tests use
// (tests/support/test_models.h) to a file, for the README's quick start and for trying
// the CLI without downloading anything. Random weights: the model's output is noise.
#include <cstdio>
#include <string>

#include "engine/gguf/gguf_writer.h"
#include "tests/support/test_models.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make-test-model OUT.gguf\n");
        return 2;
    }
    const std::string path = argv[1];
    const auto bytes = octo::test::make_test_model(octo::test::TestModelSpec{});
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size() || std::fclose(f) != 0) {
        std::fprintf(stderr, "make-test-model: error: cannot write '%s'\n", path.c_str());
        return 1;
    }
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), bytes.size());
    return 0;
}
