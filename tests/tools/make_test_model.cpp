// make-test-model: writes the small random-weight model the tests use
// (engine/model/synthetic_model.h, default spec) to a file, for the README's quick start.
#include <cstdio>
#include <string>

#include "engine/model/synthetic_model.h"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: make-test-model OUT.gguf\n");
        return 2;
    }
    const std::string path = argv[1];
    auto bytes = octo::make_synthetic_model({});
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
