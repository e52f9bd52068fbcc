#include "app/cli/bench_serve.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <cstdio>
#include <future>
#include <thread>

#include <httplib.h>

#include "app/cli/cli_output.h"
#include "app/common/builtin_model.h"
#include "engine/core/json_fields.h"
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
    double p50_latency_s = 0.0;
    double p95_latency_s = 0.0;
    int failed = 0;
};

// The q-quantile of `values` (nearest rank).
double quantile(std::vector<double> values, double q) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

// `clients` threads, each sending `per_client` requests one after another.
Level run_level(const std::string& origin, int clients, int per_client, int64_t max_tokens) {
    Level level;
    level.clients = clients;
    std::vector<std::future<std::tuple<int64_t, std::vector<double>, int>>> workers;
    const auto start = Clock::now();
    for (int c = 0; c < clients; ++c) {
        workers.push_back(std::async(std::launch::async, [=] {
            httplib::Client client(origin);
            client.set_read_timeout(600, 0);
            int64_t tokens = 0;
            std::vector<double> latencies;
            int failed = 0;
            for (int r = 0; r < per_client; ++r) {
                const nlohmann::json body = {{"prompt", kPrompts[static_cast<size_t>(c * per_client + r) % std::size(kPrompts)]},
                                             {"max_tokens", max_tokens},
                                             {"temperature", 0}};
                const auto t0 = Clock::now();
                auto res = client.Post("/v1/completions", body.dump(), "application/json");
                latencies.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
                if (!res || res->status != 200) {
                    failed += 1;
                    continue;
                }
                const auto answer = nlohmann::json::parse(res->body, nullptr, false);
                tokens += json_integer_or(json_member(answer, "usage"), "completion_tokens", 0);
            }
            return std::tuple{tokens, std::move(latencies), failed};
        }));
    }
    std::vector<double> latencies;
    for (auto& w : workers) {
        auto [tokens, l, failed] = w.get();
        level.completion_tokens += tokens;
        latencies.insert(latencies.end(), l.begin(), l.end());
        level.failed += failed;
    }
    level.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    level.requests = clients * per_client;
    double sum = 0.0;
    for (const double l : latencies) sum += l;
    level.mean_latency_s = sum / static_cast<double>(std::max<size_t>(1, latencies.size()));
    level.p50_latency_s = quantile(latencies, 0.50);
    level.p95_latency_s = quantile(latencies, 0.95);
    return level;
}

} // namespace

// Every level against `origin`: a warm-up request, then each level in turn.
std::vector<Level> run_levels(const BenchServeOptions& o, const std::string& origin) {
    (void)run_level(origin, 1, 1, o.max_tokens); // warm-up: constants, caches
    std::vector<Level> levels;
    for (int clients : o.clients) {
        levels.push_back(run_level(origin, clients, o.requests_per_client, o.max_tokens));
        if (!o.json) {
            const Level& l = levels.back();
            std::fprintf(stderr, "%d clients: %d requests in %.2f s\n", l.clients, l.requests, l.seconds);
        }
    }
    return levels;
}

int run_bench_serve(const BenchServeOptions& o) {
    std::string model_name, backend;
    std::vector<Level> levels;
    std::optional<double> mean_batch;
    if (!o.url.empty()) {
        if (o.url.rfind("http://", 0) != 0) return report_error(o.json, "--url must be http://host:port", kExitUsage);
        httplib::Client probe(o.url);
        probe.set_connection_timeout(10, 0);
        const auto models = probe.Get("/v1/models");
        if (!models || models->status != 200) return report_error(o.json, "cannot reach " + o.url + "/v1/models");
        const auto list = nlohmann::json::parse(models->body, nullptr, false);
        model_name = list.is_object() && list.contains("data") && list["data"].is_array() && !list["data"].empty() &&
                             list["data"][0].contains("id") && list["data"][0]["id"].is_string()
                         ? list["data"][0]["id"].get<std::string>()
                         : std::string("?");
        backend = o.url;
        levels = run_levels(o, o.url);
    } else {
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
        levels = run_levels(o, "http://127.0.0.1:" + std::to_string(server.port()));
        const serve::SchedulerStats stats = server.stats();
        server.stop();
        listener.join();
        model_name = valid_utf8(opened->info.name);
        backend = opened->info.backend;
        mean_batch = stats.steps > 0 ? static_cast<double>(stats.batched_tokens) / static_cast<double>(stats.steps) : 0.0;
    }

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
                        {"p50_latency_s", l.p50_latency_s},
                        {"p95_latency_s", l.p95_latency_s},
                        {"tokens_per_s_vs_one_client", base_tps > 0 ? tps / base_tps : 0.0}});
    }
    if (o.json) {
        nlohmann::json out = {{"model", model_name},
                              {"backend", backend},
                              {"max_tokens", o.max_tokens},
                              {"requests_per_client", o.requests_per_client},
                              {"levels", rows}};
        if (mean_batch) out["mean_batch"] = *mean_batch;
        print_json(out);
        return kExitOk;
    }
    std::printf("model: %s (%s), max_tokens %lld, %d requests per client\n", model_name.c_str(), backend.c_str(),
                static_cast<long long>(o.max_tokens), o.requests_per_client);
    std::printf("%8s %9s %7s %10s %10s %10s %10s %10s %10s\n", "clients", "requests", "failed", "req/s", "tokens", "tokens/s",
                "p50 s", "p95 s", "vs 1");
    for (size_t i = 0; i < rows.size(); ++i) {
        const nlohmann::json& r = rows[i];
        std::printf("%8d %9d %7d %10.2f %10lld %10.1f %10.3f %10.3f %9.2fx\n", r["clients"].get<int>(), r["requests"].get<int>(),
                    r["failed"].get<int>(), r["requests_per_s"].get<double>(), static_cast<long long>(levels[i].completion_tokens),
                    r["tokens_per_s"].get<double>(), r["p50_latency_s"].get<double>(), r["p95_latency_s"].get<double>(),
                    r["tokens_per_s_vs_one_client"].get<double>());
    }
    if (mean_batch) std::printf("mean decode batch: %.2f sequences per forward pass\n", *mean_batch);
    return kExitOk;
}

} // namespace octo::cli
