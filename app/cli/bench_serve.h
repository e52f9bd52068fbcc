// `octoscope-cli bench --serve`: the server's throughput under load (docs/server.md, "Load"). An
// in-process server on a free loopback port; 1, 4 and 16 clients (by default) each send
// requests one after another; requests/s and generated tokens/s per level, against the one-client
// level as the single-request baseline, latency percentiles, and the mean number of sequences per
// decode pass. With `url`, the same client loads another OpenAI-compatible server instead (an
// Octoscope or llama.cpp server started apart): side-by-side figures with one client.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace octo::cli {

struct BenchServeOptions {
    std::string model;  // empty: the built-in octet
    std::string backend = "auto";
    int threads = 0;
    std::vector<int> clients = {1, 4, 16};
    int requests_per_client = 4;
    int64_t max_tokens = 32;
    bool json = false;
    std::string url; // http://host:port of a server to load instead of an in-process one
};

int run_bench_serve(const BenchServeOptions& options);

} // namespace octo::cli
