// The engine side of `octoscope-cli serve`: continuous batching over the shared KV pool.
//
// Requests wait in a bounded queue. One engine thread keeps up to `parallel` sequences in flight
// in the model's KV pool (so a prompt prefix computed for one request is reused by the next) and
// loops: admit waiting sequences while there is room (each one's prompt is evaluated alone, with
// prefix reuse), choose every running sequence's next token, then evaluate all the chosen tokens
// together, one forward pass per group of sequences that can share one (Session::eval_batch; the
// groups differ by ablation and measurements). A sequence that finishes or whose client cancels
// leaves at once and its blocks go back to the pool; a new one joins at the next step.
//
// A batch changes no row's values, so a sequence's tokens are those of a solo run of the same
// request (bit for bit), whatever else runs: determinism per request for a fixed seed.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "engine/generation/instrumented_generation.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/kv/kv_store.h"
#include "engine/model/model.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo::serve {

// What the scheduler runs on (all outliving it; only the engine thread touches them).
struct ServedModel {
    const Model* model = nullptr;
    const Tokenizer* tokenizer = nullptr;
    Backend* backend = nullptr;
    const HeadMap* map = nullptr;
    const ExpertMap* expert_map = nullptr; // null: no experts metric
    KvStore* kv = nullptr;
};

// One sequence to generate (one choice of a request).
struct SequenceRequest {
    RunSpec spec;                    // sampling, stops, ablation, measurements (its prompt already built)
    std::vector<int32_t> prompt_ids; // the built prompt (cancel: the channel's; expert map: the served model's)
    bool metrics = false;            // compute each position's metrics (head norms are measured only then)
};

// What a sequence reports, in order: Prompt once (when its first token is chosen, or at the end
// when none is), Token for each token, then Done or Failed.
struct SequenceEvent {
    enum class Kind { Prompt, Token, Done, Failed };
    Kind kind = Kind::Token;
    int choice = 0;
    int64_t token_index = 0;                  // Token: its place among the choice's tokens (0: the first)
    TokenEvent token;                         // Token
    TokenMetrics metrics;                     // Token, with metrics
    std::vector<TokenProbe> prompt_probes;    // Prompt, with metrics
    std::vector<TokenMetrics> prompt_metrics; // Prompt, with metrics
    GenerateResult result;                    // Done: text, stop reason, counts and timing (tokens and probes left out)
    KvPoolStats kv;                           // Done: the pool then
    Error error{ErrorCode::InvalidArgument, ""}; // Failed
};

// One client request's events (its choices interleaved) and its cancel flag: written by the engine
// thread, read by the request's HTTP thread.
class RequestChannel {
public:
    explicit RequestChannel(int n_choices) : open_(n_choices) {}

    void post(SequenceEvent event);
    // The events that arrived, waiting up to `timeout` for the first; empty on a timeout.
    std::vector<SequenceEvent> wait(std::chrono::milliseconds timeout);
    // Whether every choice has ended (Done or Failed).
    bool finished() const;

    // The client went away or asked to stop: every choice ends with StopReason::Cancelled.
    void cancel() { cancelled_.store(true); }
    bool cancelled() const { return cancelled_.load(); }
    const std::atomic<bool>* cancel_flag() const { return &cancelled_; }

private:
    mutable std::mutex mutex_;
    std::condition_variable arrived_;
    std::deque<SequenceEvent> events_;
    int open_;
    std::atomic<bool> cancelled_{false};
};

struct SchedulerOptions {
    int parallel = 4;   // sequences in flight at once
    int max_queue = 64; // requests waiting; one more is refused
};

struct SchedulerStats {
    int64_t waiting = 0;   // requests in the queue
    int64_t running = 0;   // sequences in flight
    int64_t completed = 0; // sequences that ended (any stop reason but a cancel)
    int64_t cancelled = 0;
    int64_t failed = 0;
    int64_t steps = 0;          // batched decode passes
    int64_t batched_tokens = 0; // tokens they evaluated (batched_tokens / steps: the mean batch)
    KvPoolStats kv;             // after the last step
};

class BatchScheduler {
public:
    // Starts the engine thread.
    BatchScheduler(ServedModel model, SchedulerOptions options);
    // shutdown(), and joins the engine thread.
    ~BatchScheduler();
    BatchScheduler(const BatchScheduler&) = delete;
    BatchScheduler& operator=(const BatchScheduler&) = delete;

    // Queues a request's sequences (their events go to `channel`); false, with nothing queued,
    // when max_queue requests are waiting already.
    bool submit(std::vector<SequenceRequest> sequences, std::shared_ptr<RequestChannel> channel);

    // Runs `task(true)` on the engine thread between two steps (the only thread that may use the
    // model's backend), or `task(false)` once the scheduler stops before it ran.
    void run_on_engine(std::function<void(bool run)> task);

    // Stops taking requests and ends every sequence, running or waiting, with a Failed event
    // (Cancelled: "the server is stopping"); returns at once (the engine thread finishes its step).
    void shutdown();

    SchedulerStats stats() const;
    const SchedulerOptions& options() const { return options_; }

private:
    struct Waiting {
        std::vector<SequenceRequest> sequences;
        size_t next = 0; // the first not yet admitted
        std::shared_ptr<RequestChannel> channel;
    };
    struct Running;

    void run();
    // Ends the waiting requests whose client has gone (mutex_ held): they leave the queue at once,
    // not when their turn comes.
    void drop_cancelled_waiting();
    void admit(SequenceRequest request, int choice, std::shared_ptr<RequestChannel> channel);
    void step();
    void end(Running& r, std::optional<Error> error);

    ServedModel model_;
    SchedulerOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Waiting> queue_;
    std::deque<std::function<void(bool)>> tasks_;
    bool stopping_ = false;
    SchedulerStats stats_;
    std::vector<std::unique_ptr<Running>> running_; // engine thread only
    std::thread thread_;
};

} // namespace octo::serve
