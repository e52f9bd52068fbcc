#include "engine/serve/batch_scheduler.h"

#include <algorithm>

#include "engine/generation/generator.h"

namespace octo::serve {

namespace {

using Clock = std::chrono::steady_clock;

} // namespace

void RequestChannel::post(SequenceEvent event) {
    {
        std::lock_guard lock(mutex_);
        if (event.kind == SequenceEvent::Kind::Done || event.kind == SequenceEvent::Kind::Failed) open_ -= 1;
        events_.push_back(std::move(event));
    }
    arrived_.notify_all();
}

std::vector<SequenceEvent> RequestChannel::wait(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    arrived_.wait_for(lock, timeout, [&] { return !events_.empty(); });
    std::vector<SequenceEvent> out(std::make_move_iterator(events_.begin()), std::make_move_iterator(events_.end()));
    events_.clear();
    return out;
}

bool RequestChannel::finished() const {
    std::lock_guard lock(mutex_);
    return open_ <= 0 && events_.empty();
}

// A sequence in flight. The request lives here so that the loop's pointer to it stays valid.
struct BatchScheduler::Running {
    std::shared_ptr<RequestChannel> channel;
    int choice = 0;
    SequenceRequest request;
    GenerateRequest generate; // the loop's request (it must outlive the loop)
    std::unique_ptr<Session> session;
    std::optional<GenerationLoop> loop;
    std::optional<RunMetrics> metrics;
    int64_t tokens = 0; // Token events posted
    bool ended = false;
};

BatchScheduler::BatchScheduler(ServedModel model, SchedulerOptions options)
    : model_(model), options_(options) {
    options_.parallel = std::max(1, options_.parallel);
    options_.max_queue = std::max(0, options_.max_queue);
    thread_ = std::thread([this] { run(); });
}

BatchScheduler::~BatchScheduler() {
    shutdown();
    thread_.join();
}

void BatchScheduler::shutdown() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
}

bool BatchScheduler::submit(std::vector<SequenceRequest> sequences, std::shared_ptr<RequestChannel> channel) {
    {
        std::lock_guard lock(mutex_);
        // max_queue counts requests that wait: one that can start at once never waits (so
        // --max-queue 0 still serves an idle server). Counted by stats_.running, which end()
        // lowers before the client hears of the end (running_ is the engine thread's and is
        // pruned after: a client that sent its next request at once was refused, 429).
        const bool starts_now = queue_.empty() && stats_.running < static_cast<int64_t>(options_.parallel);
        if (stopping_ || (!starts_now && static_cast<int64_t>(queue_.size()) >= options_.max_queue)) return false;
        queue_.push_back(Waiting{std::move(sequences), 0, std::move(channel)});
        stats_.waiting = static_cast<int64_t>(queue_.size());
    }
    wake_.notify_all();
    return true;
}

SchedulerStats BatchScheduler::stats() const {
    std::lock_guard lock(mutex_);
    return stats_;
}

void BatchScheduler::run() {
    std::deque<std::function<void(bool)>> tasks;
    while (true) {
        std::vector<std::tuple<SequenceRequest, int, std::shared_ptr<RequestChannel>>> admitted;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || !queue_.empty() || !running_.empty() || !tasks_.empty(); });
            if (stopping_) break;
            tasks.swap(tasks_);
            drop_cancelled_waiting();
            size_t room = static_cast<size_t>(options_.parallel) - running_.size();
            while (room > 0 && !queue_.empty()) {
                Waiting& w = queue_.front();
                const int choice = static_cast<int>(w.next);
                admitted.emplace_back(std::move(w.sequences[w.next]), choice, w.channel);
                w.next += 1;
                room -= 1;
                if (w.next == w.sequences.size()) queue_.pop_front();
            }
            stats_.waiting = static_cast<int64_t>(queue_.size());
        }
        for (auto& task : tasks) task(true);
        tasks.clear();
        for (auto& [request, choice, channel] : admitted) admit(std::move(request), choice, std::move(channel));
        step();
    }
    // Stopping: every sequence ends.
    for (auto& r : running_) {
        r->channel->cancel();
        end(*r, make_error(ErrorCode::Cancelled, "the server is stopping"));
    }
    running_.clear();
    std::lock_guard lock(mutex_);
    for (Waiting& w : queue_) {
        for (size_t i = w.next; i < w.sequences.size(); ++i) {
            SequenceEvent e;
            e.kind = SequenceEvent::Kind::Failed;
            e.choice = static_cast<int>(i);
            e.error = make_error(ErrorCode::Cancelled, "the server is stopping");
            w.channel->post(std::move(e));
        }
    }
    queue_.clear();
    for (auto& task : tasks_) task(false);
    tasks_.clear();
}

void BatchScheduler::run_on_engine(std::function<void(bool)> task) {
    {
        std::lock_guard lock(mutex_);
        if (!stopping_) {
            tasks_.push_back(std::move(task));
            task = nullptr;
        }
    }
    if (task) return task(false);
    wake_.notify_all();
}

void BatchScheduler::drop_cancelled_waiting() {
    for (auto w = queue_.begin(); w != queue_.end();) {
        if (!w->channel->cancelled()) {
            ++w;
            continue;
        }
        for (size_t i = w->next; i < w->sequences.size(); ++i) {
            SequenceEvent e;
            e.kind = SequenceEvent::Kind::Failed;
            e.choice = static_cast<int>(i);
            e.error = make_error(ErrorCode::Cancelled, "cancelled while waiting");
            w->channel->post(std::move(e));
            stats_.cancelled += 1;
        }
        w = queue_.erase(w);
    }
}

void BatchScheduler::admit(SequenceRequest request, int choice, std::shared_ptr<RequestChannel> channel) {
    auto r = std::make_unique<Running>();
    r->channel = std::move(channel);
    r->choice = choice;
    r->request = std::move(request);
    if (r->channel->cancelled()) return end(*r, make_error(ErrorCode::Cancelled, "cancelled before it started"));
    const RunSpec& spec = r->request.spec;
    // Sessions evaluated together take no cancel flag; the loop checks the channel's.
    const RunInputs inputs{.prompt_ids = r->request.prompt_ids, .expert_map = model_.expert_map, .cancel = nullptr};
    auto options = instrumented_session_options(*model_.model, *model_.backend, *model_.map, *model_.kv, spec, inputs);
    if (!options) return end(*r, options.error());
    options->instrument.head_norms = r->request.metrics;
    auto session = Session::create(*model_.model, *model_.backend, options.value());
    if (!session) return end(*r, session.error());
    r->session = std::move(session.value());
    if (r->request.metrics) {
        r->metrics.emplace(*model_.map, model_.model->weights().n_router_groups,
                           model_.expert_map ? &model_.expert_map->map : nullptr);
    }
    Running* raw = r.get();
    r->generate = generate_request(spec, inputs);
    r->generate.cancel = r->channel->cancel_flag();
    r->generate.on_prompt = [raw](const std::vector<TokenProbe>& probes) {
        SequenceEvent e;
        e.kind = SequenceEvent::Kind::Prompt;
        e.choice = raw->choice;
        if (raw->metrics) {
            e.prompt_metrics = raw->metrics->prompt(probes);
            e.prompt_probes = probes;
        }
        raw->channel->post(std::move(e));
    };
    auto loop = GenerationLoop::start(*r->session, *model_.tokenizer, r->generate);
    if (!loop) return end(*r, loop.error());
    r->loop.emplace(std::move(loop.value()));
    running_.push_back(std::move(r));
    std::lock_guard lock(mutex_);
    stats_.running += 1;
}

void BatchScheduler::end(Running& r, std::optional<Error> error) {
    r.ended = true;
    SequenceEvent e;
    e.choice = r.choice;
    bool cancelled = false;
    if (error) {
        e.kind = SequenceEvent::Kind::Failed;
        e.error = std::move(*error);
        cancelled = e.error.code == ErrorCode::Cancelled;
    } else {
        e.kind = SequenceEvent::Kind::Done;
        e.result = r.loop->finish();
        e.result.tokens.clear();
        e.result.prompt_probes.clear();
        if (r.metrics && r.metrics->error()) {
            e.kind = SequenceEvent::Kind::Failed;
            e.error = *r.metrics->error();
        }
        cancelled = e.result.stop_reason == StopReason::Cancelled;
    }
    r.session.reset(); // its blocks go back to the pool before the client hears of the end
    e.kv = model_.kv->pool().stats();
    {
        std::lock_guard lock(mutex_);
        (cancelled ? stats_.cancelled : e.kind == SequenceEvent::Kind::Failed ? stats_.failed : stats_.completed) += 1;
        stats_.kv = e.kv;
        if (r.loop) stats_.running -= 1; // it was admitted (its loop started)
    }
    r.channel->post(std::move(e));
}

void BatchScheduler::step() {
    // Every running sequence chooses its next token.
    for (auto& r : running_) {
        auto event = r->loop->choose();
        if (!event) {
            end(*r, event.error());
            continue;
        }
        if (*event) {
            SequenceEvent e;
            e.kind = SequenceEvent::Kind::Token;
            e.choice = r->choice;
            e.token_index = r->tokens++;
            e.token = **event;
            if (r->metrics) e.metrics = r->metrics->token(e.token.probe);
            if (!r->metrics) e.token.probe = {};
            r->channel->post(std::move(e));
        }
        if (r->loop->done()) end(*r, std::nullopt);
    }
    std::erase_if(running_, [](const std::unique_ptr<Running>& r) { return r->ended; });

    // The chosen tokens, evaluated together: one batch per group of sequences that can share one.
    std::vector<bool> placed(running_.size(), false);
    int64_t steps = 0, tokens = 0;
    for (size_t i = 0; i < running_.size(); ++i) {
        if (placed[i]) continue;
        std::vector<Running*> group;
        for (size_t j = i; j < running_.size(); ++j) {
            if (placed[j] || !running_[j]->session->batches_with(*running_[i]->session)) continue;
            placed[j] = true;
            group.push_back(running_[j].get());
        }
        std::vector<Session*> sessions;
        std::vector<int32_t> ids;
        for (Running* r : group) {
            sessions.push_back(r->session.get());
            ids.push_back(r->loop->pending());
        }
        const auto start = Clock::now();
        const Status s = Session::eval_batch(sessions, ids);
        const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
        for (Running* r : group) {
            if (!s) {
                end(*r, s.error());
            } else {
                r->loop->evaluated(ms);
            }
        }
        steps += 1;
        tokens += static_cast<int64_t>(group.size());
    }
    std::erase_if(running_, [](const std::unique_ptr<Running>& r) { return r->ended; });
    std::lock_guard lock(mutex_);
    stats_.steps += steps;
    stats_.batched_tokens += tokens;
    stats_.kv = model_.kv->pool().stats();
}

} // namespace octo::serve
