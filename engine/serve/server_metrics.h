// What `GET /metrics` reports, in the Prometheus text format (version 0.0.4), for a scraper
// beside a load balancer. Counters since start, gauges read at the scrape, histograms with
// cumulative buckets:
//
//   octoscope_requests_total{endpoint, status}              requests answered (endpoint: the route, or "other"),
//                                                          counted once the answer's last byte is sent
//   octoscope_prompt_tokens_total / _generation_tokens_total tokens in and out of finished generations
//   octoscope_sequences_total{outcome}                      completed, cancelled, failed (the scheduler's)
//   octoscope_requests_waiting / _sequences_running         the queue and the batch now
//   octoscope_kv_blocks{state}                              total, used, cached
//   octoscope_connections_open, _connections_refused_total, _connections_timed_out_total
//   octoscope_time_to_first_token_seconds                   request's first byte to its first token (queue included)
//   octoscope_time_per_output_token_seconds                 between two tokens of a sequence
//   octoscope_request_duration_seconds                      first byte to the answer's last byte
//
// Thread-safe: HTTP threads record, the scrape reads.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "engine/serve/batch_scheduler.h"

namespace octo::serve {

// A histogram over fixed bucket bounds (seconds).
class Histogram {
public:
    static constexpr std::array<double, 14> kBounds = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120};

    void observe(double seconds);
    // The lines of `name` (its _bucket, _sum and _count series), with HELP and TYPE.
    std::string render(const std::string& name, const std::string& help) const;

private:
    std::array<uint64_t, kBounds.size()> counts_{}; // per bucket, not cumulative
    uint64_t count_ = 0;
    double sum_ = 0.0;
};

// What the server knows of its connections at the scrape.
struct ConnectionCounts {
    int64_t open = 0;
    int64_t refused = 0;
    int64_t timed_out = 0;
};

class ServerMetrics {
public:
    // A request answered: `endpoint` its route ("/v1/completions", …; another path: "other").
    void request_answered(const std::string& endpoint, int status, double seconds);
    // A generation's tokens (all choices), once it has finished.
    void tokens(int64_t prompt, int64_t generated);
    void first_token(double seconds);
    void between_tokens(double seconds);

    // The whole exposition.
    std::string render(const SchedulerStats& scheduler, const ConnectionCounts& connections) const;

private:
    mutable std::mutex mutex_;
    std::map<std::pair<std::string, int>, uint64_t> requests_;
    uint64_t prompt_tokens_ = 0;
    uint64_t generation_tokens_ = 0;
    Histogram first_token_;
    Histogram between_tokens_;
    Histogram duration_;
};

} // namespace octo::serve
