#include "app/cli/bench_serve.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <future>
#include <thread>

#include <httplib.h>

#include "app/cli/cli_output.h"
#include "app/common/builtin_model.h"
#include "engine/serve/openai_server.h"

namespace octo::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Distinct prompts, so that the rows of a batch are different sequences (prefix reuse still finds
// the shared template).
const char* const kPrompts[] = {"What is 35% of 240?", "Add 17 and 26.",     "What is 12 + 9?",  "What is 45% of 300?",
                                "Add 230 and 144.",    "What is 15% of 80?", "What is 71 + 18?", "Add 9 and 33."};

struct Level {
    int clients = 0;
    int requests = 0;
    int64_t completion_tokens = 0;
    double seconds = 0.0;
    double mean_latency_s = 0.0;
    int failed = 0;
};

// `clients` threads, each sending `per_client` requests one after another.
Level run_level(int port, int clients, int per_client, int64_t max_tokens) {
    Level level;
    level.clients = clients;
    std::vector<std::future<std::tuple<int64_t, double, int>>> workers;
    const auto start = Clock::now();
    for (int c = 0; c < clients; ++c) {
        workers.push_back(std::async(std::launch::async, [=] {
            httplib::Client client("127.0.0.1", port);
            client.set_read_timeout(600, 0);
            int64_t tokens = 0;
            double latency = 0.0;
            int failed = 0;
            for (int r = 0; r < per_client; ++r) {
                const nlohmann::json body = {{"prompt", kPrompts[static_cast<size_t>(c * per_client + r) % std::size(kPrompts)]},
                                             {"max_tokens", max_tokens},
                                             {"temperature", 0}};
                const auto t0 = Clock::now();
                auto res = client.Post("/v1/completions", body.dump(), "application/json");
                latency += std::chrono::duration<double>(Clock::now() - t0).count();
                if (!res || res->status != 200) {
                    failed += 1;
                    continue;
                }
                const auto answer = nlohmann::json::parse(res->body, nullptr, false);
                if (answer.is_object()) tokens += answer["usage"].value("completion_tokens", int64_t{0});
            }
            return std::tuple{tokens, latency, failed};
        }));
    }
    double latency = 0.0;
    for (auto& w : workers) {
        const auto [tokens, l, failed] = w.get();
        level.completion_tokens += tokens;
        latency += l;
        level.failed += failed;
    }
    level.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    level.requests = clients * per_client;
    level.mean_latency_s = latency / std::max(1, level.requests);
    return level;
}

} // namespace

int run_bench_serve(const BenchServeOptions& o) {
    const int most = *std::max_element(o.clients.begin(), o.clients.end());
    auto opened = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .kv_sequences = most});
    if (!opened) return report_error(o.json, opened.error());
    serve::ServedModelInfo info;
    info.id = "bench";
    info.n_ctx = opened->info.n_ctx;
    serve::ServerOptions so;
    so.port = 0;
    so.scheduler.parallel = most;
    so.scheduler.max_queue = most;
    serve::ServedModel served{opened->model.get(), opened->tokenizer.get(), opened->backend.get(), &opened->map(),
                              opened->expert_map(), opened->kv.get()};
    serve::OpenAiServer server(served, info, so);
    if (auto s = server.bind(); !s) return report_error(o.json, s.error());
    std::thread listener([&] { (void)server.serve(); });

    (void)run_level(server.port(), 1, 1, o.max_tokens); // warm-up: constants, caches
    std::vector<Level> levels;
    for (int clients : o.clients) {
        levels.push_back(run_level(server.port(), clients, o.requests_per_client, o.max_tokens));
        if (!o.json) {
            const Level& l = levels.back();
            std::fprintf(stderr, "%d clients: %d requests in %.2f s\n", l.clients, l.requests, l.seconds);
        }
    }
    const serve::SchedulerStats stats = server.stats();
    server.stop();
    listener.join();

    const Level& base = levels.front();
    const double base_tps = static_cast<double>(base.completion_tokens) / base.seconds;
    nlohmann::json rows = nlohmann::json::array();
    for (const Level& l : levels) {
        const double tps = static_cast<double>(l.completion_tokens) / l.seconds;
        rows.push_back({{"clients", l.clients},
                        {"requests", l.requests},
                        {"failed", l.failed},
                        {"seconds", l.seconds},
                        {"requests_per_s", l.requests / l.seconds},
                        {"tokens_per_s", tps},
                        {"mean_latency_s", l.mean_latency_s},
                        {"tokens_per_s_vs_one_client", base_tps > 0 ? tps / base_tps : 0.0}});
    }
    const double mean_batch = stats.steps > 0 ? static_cast<double>(stats.batched_tokens) / static_cast<double>(stats.steps) : 0.0;
    if (o.json) {
        print_json({{"model", valid_utf8(opened->info.name)},
                    {"backend", opened->info.backend},
                    {"max_tokens", o.max_tokens},
                    {"requests_per_client", o.requests_per_client},
                    {"levels", rows},
                    {"mean_batch", mean_batch}});
        return kExitOk;
    }
    std::printf("model: %s (%s), max_tokens %lld, %d requests per client\n", opened->info.name.c_str(),
                opened->info.backend.c_str(), static_cast<long long>(o.max_tokens), o.requests_per_client);
    std::printf("%8s %9s %10s %10s %12s %10s\n", "clients", "requests", "req/s", "tokens/s", "latency s", "vs 1");
    for (const nlohmann::json& r : rows) {
        std::printf("%8d %9d %10.2f %10.1f %12.3f %9.2fx\n", r["clients"].get<int>(), r["requests"].get<int>(),
                    r["requests_per_s"].get<double>(), r["tokens_per_s"].get<double>(), r["mean_latency_s"].get<double>(),
                    r["tokens_per_s_vs_one_client"].get<double>());
    }
    std::printf("mean decode batch: %.2f sequences per forward pass\n", mean_batch);
    return kExitOk;
}

} // namespace octo::cli
