#include "engine/host/engine_host.h"

#include <algorithm>

#include "engine/backend/cuda/cuda_backend.h"
#include "engine/capture/capture_identity.h"
#include "engine/core/log.h"
#include "engine/host/claim_variant.h"
#include "engine/host/model_beside.h"
#include "engine/generation/logit_lens_run.h"
#include "engine/generation/prompt_builder.h"
#include "engine/instrumentation/calibrated_maps.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/router/head_calibration.h"
#include "engine/kv/kv_store.h"
#include "engine/model/model.h"
#include "engine/model/user_data.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

EngineHost::EngineHost(std::function<void()> notify) : notify_(std::move(notify)), thread_([this] { worker(); }) {}

EngineHost::~EngineHost() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
    }
    cancel_ = true;
    wake_.notify_all();
    thread_.join();
    stop_identifying();
}

void EngineHost::load_model(const std::string& path, const LoadChoice& choice) {
    {
        std::lock_guard lock(mutex_);
        drop_queued_runs();
        queue_.push_back(LoadCommand{path, choice});
    }
    wake_.notify_all();
}

void EngineHost::connect(std::shared_ptr<RemoteRunner> runner) {
    {
        std::lock_guard lock(mutex_);
        drop_queued_runs();
        queue_.push_back(ConnectCommand{std::move(runner)});
    }
    wake_.notify_all();
}

uint64_t EngineHost::run(const RunSpec& spec, bool replace_queued) {
    uint64_t id = 0;
    {
        std::lock_guard lock(mutex_);
        id = next_run_++;
        if (replace_queued) drop_queued_runs();
        queue_.push_back(RunCommand{id, spec});
    }
    wake_.notify_all();
    return id;
}

void EngineHost::logit_lens(uint64_t run_id, const std::string& model_path, const RunSpec& spec, std::vector<int32_t> tokens,
                            size_t n_prompt, int64_t position, int64_t k) {
    {
        std::lock_guard lock(mutex_);
        std::erase_if(queue_, [](const Command& c) { return std::holds_alternative<LensCommand>(c); });
        queue_.push_back(LensCommand{run_id, model_path, spec, std::move(tokens), n_prompt, position, k});
    }
    wake_.notify_all();
}

void EngineHost::quant_report(const std::string& model_b, std::vector<std::string> prompts, const QuantReportOptions& options) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(QuantReportCommand{model_b, std::move(prompts), options});
    }
    wake_.notify_all();
}

void EngineHost::drop_queued_runs() {
    std::erase_if(queue_, [this](const Command& c) {
        const auto* run = std::get_if<RunCommand>(&c);
        if (run) post(host_event::RunDropped{run->id});
        return run != nullptr;
    });
}

void EngineHost::calibrate(const std::string& train_probes, const std::string& dev_probes, CalibrationUnit unit) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(CalibrateCommand{train_probes, dev_probes, unit});
    }
    wake_.notify_all();
}

void EngineHost::run_claims(std::vector<Claim> claims, const std::string& resource_dir, uint64_t seed, int64_t items,
                            const std::string& version) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(ClaimsCommand{std::move(claims), resource_dir, seed, items, version});
    }
    wake_.notify_all();
}

void EngineHost::cancel() { cancel_ = true; }

bool EngineHost::busy() const {
    std::lock_guard lock(mutex_);
    return running_ || !queue_.empty();
}

std::vector<HostEvent> EngineHost::take_events() {
    std::lock_guard lock(events_mutex_);
    std::vector<HostEvent> out;
    out.swap(events_);
    return out;
}

void EngineHost::post(HostEvent event) {
    {
        std::lock_guard lock(events_mutex_);
        events_.push_back(std::move(event));
    }
    if (notify_) notify_();
}

void EngineHost::worker() {
    while (true) {
        Command command;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            command = std::move(queue_.front());
            queue_.pop_front();
            running_ = true;
            cancel_ = false;
        }
        std::visit([this](const auto& c) { execute(c); }, command);
        std::lock_guard lock(mutex_);
        running_ = false;
    }
}

void EngineHost::execute(const LoadCommand& c) {
    OpenOptions options;
    options.backend = c.choice.backend;
    options.kv_types = c.choice.kv_types;
    options.kv_fallback = true; // the menu's remembered choice meets models it cannot serve
    options.on_estimate = [&](const MemoryEstimate& e) {
        post(host_event::LoadStarted{c.path, e.weights_bytes, e.kv_bytes, e.total()});
    };
    options.progress = [this](double f) {
        post(host_event::LoadProgress{f});
        return !cancel_.load();
    };
    auto opened = open_model(c.path, options);
    if (!opened) {
        const Error& e = opened.error();
        log_message(e.code == ErrorCode::Cancelled ? LogLevel::Info : LogLevel::Error, "cannot load " + c.path + ": " + e.message);
        return post(host_event::LoadFailed{c.path, e});
    }
    stop_identifying();
    remote_.reset();
    loaded_.reset(); // the old pool and model go before the new one is published
    loaded_ = std::make_unique<OpenedModel>(std::move(opened.value()));
    const ModelInfo& info = loaded_->info;
    log_message(LogLevel::Info, "loaded " + info.path + " (" + info.architecture + ", " + std::to_string(info.n_layer) +
                                    " layers) on " + info.backend);
    if (!info.kv_note.empty()) log_message(LogLevel::Warning, info.kv_note);
    post(host_event::ModelLoaded{info});
    identify(*loaded_->model, info.path);
}

void EngineHost::identify(const Model& model, const std::string& path) {
    auto described = describe_capture_model(model);
    if (!described) return post(host_event::ModelIdentityFailed{path, described.error()});
    identity_cancel_ = false;
    identity_thread_ = std::thread([this, path, file = model.path(), key = model.identity(),
                                    identity = std::move(described.value())]() mutable {
        auto sha = file_sha256(file, key, &identity_cancel_);
        if (!sha) {
            if (sha.error().code != ErrorCode::Cancelled) post(host_event::ModelIdentityFailed{path, sha.error()});
            return;
        }
        identity.sha256 = sha.value();
        post(host_event::ModelIdentified{path, std::move(identity)});
    });
}

void EngineHost::stop_identifying() {
    identity_cancel_ = true;
    if (identity_thread_.joinable()) identity_thread_.join();
}

void EngineHost::execute(const LensCommand& c) {
    const auto fail = [&](ErrorCode code, const std::string& why) {
        post(host_event::LensFailed{c.run_id, c.position, make_error(code, why)});
    };
    if (remote_) return fail(ErrorCode::InvalidArgument, "the logit lens reads the model's layers, which run on " + remote_->info().path);
    if (!loaded_) return fail(ErrorCode::InvalidArgument, "no model is loaded");
    OpenedModel& l = *loaded_;
    if (c.model_path != l.info.path) {
        return fail(ErrorCode::InvalidArgument, "the run was made with " + c.model_path + ", and " + l.info.path +
                                                    " is loaded: open that model again to see this run's lens");
    }
    if (c.n_prompt == 0 || c.n_prompt > c.tokens.size()) return fail(ErrorCode::InvalidArgument, "the run has no prompt");
    const std::span<const int32_t> tokens(c.tokens);
    const RunInputs inputs{.prompt_ids = tokens.first(c.n_prompt), .expert_map = l.expert_map(), .cancel = &cancel_};
    auto lens = run_logit_lens(*l.model, *l.backend, l.map(), *l.kv, c.spec, inputs, tokens, std::vector<int64_t>{c.position}, c.k);
    if (!lens) return post(host_event::LensFailed{c.run_id, c.position, lens.error()});
    post(host_event::LensReady{c.run_id, name_lens(std::move(lens->front()), [&](int32_t id) { return l.tokenizer->token_bytes(id); })});
}

void EngineHost::execute(const QuantReportCommand& c) {
    const auto fail = [&](const Error& e) { post(host_event::QuantReportFailed{e}); };
    if (remote_) {
        return fail(make_error(ErrorCode::InvalidArgument, "the quantisation report runs two model files here, and runs go to " +
                                                               remote_->info().path + ": open model A first"));
    }
    if (!loaded_) return fail(make_error(ErrorCode::InvalidArgument, "no model is loaded: open model A first"));
    OpenedModel& a = *loaded_;
    auto b = open_beside(a, c.model_b, c.options.precision, [this](double f) {
        post(host_event::QuantReportProgress{f, 0, 0});
        return !cancel_.load();
    });
    if (!b) return fail(b.error());
    QuantReportOptions options = c.options;
    options.cancel = &cancel_;
    options.progress = [this](size_t done, size_t total) { post(host_event::QuantReportProgress{1.0, done, total}); };
    auto report = octo::quant_report(report_model_of(a, *a.backend), report_model_of(*b, *a.backend), c.prompts, options);
    if (!report) return fail(report.error());
    post(host_event::QuantReportReady{std::move(report.value())});
}

void EngineHost::execute(const CalibrateCommand& c) {
    if (remote_) {
        return post(host_event::CalibrationFailed{make_error(
            ErrorCode::InvalidArgument, "calibration measures the model's heads, which runs on " + remote_->info().path +
                                            ": open the model here, or calibrate where it is served (octoscope-cli calibrate)")});
    }
    if (!loaded_) return post(host_event::CalibrationFailed{make_error(ErrorCode::InvalidArgument, "no model is loaded")});
    OpenedModel& l = *loaded_;
    auto train = read_probe_file(c.train);
    if (!train) return post(host_event::CalibrationFailed{train.error()});
    auto dev = read_probe_file(c.dev);
    if (!dev) return post(host_event::CalibrationFailed{dev.error()});
    CalibrationOptions options;
    options.cancel = &cancel_;
    options.unit = c.unit;
    options.progress = [this](size_t done, size_t total) {
        if (done % 8 == 0 || done == total) post(host_event::CalibrationProgress{done, total});
    };
    auto r = calibrate_head_map(*l.model, *l.backend, *l.tokenizer, train.value(), dev.value(), options);
    if (!r) return post(host_event::CalibrationFailed{r.error()});
    const nlohmann::json report = {{"n_train", r->n_train}, {"n_dev", r->n_dev}, {"separation", r->separation},
                                   {"null_separation", r->null_separation},
                                   {"token_null_separation", r->token_null_separation},
                                   {"precision", std::string(precision_name(l.info.default_precision))}};
    const bool experts = c.unit == CalibrationUnit::Experts;
    auto saved = save_calibrated_map(*l.model, l.info.path, r->map, report, experts ? MapKind::Experts : MapKind::Heads);
    if (!saved) return post(host_event::CalibrationFailed{saved.error()});
    if (experts) { // runs from now on compute the experts metric from it
        auto active = resolve_expert_map(*l.model);
        if (!active) return post(host_event::CalibrationFailed{active.error()});
        l.info.expert_map = active.value();
        return post(host_event::CalibrationDone{r->separation, r->null_separation, saved.value(), l.map(), active.value()});
    }
    auto active = resolve_head_map(*l.model); // precedence: the model's own map, then this one
    if (!active) return post(host_event::CalibrationFailed{active.error()});
    l.set_map(active.value());
    post(host_event::CalibrationDone{r->separation, r->null_separation, saved.value(), active.value()});
}

void EngineHost::execute(const ClaimsCommand& c) {
    if (!loaded_ && !remote_) return post(host_event::ClaimsFailed{make_error(ErrorCode::InvalidArgument, "no model is loaded")});
    auto data = load_claim_data(c.resource_dir);
    if (!data) return post(host_event::ClaimsFailed{data.error()});
    ClaimLabOptions options;
    options.seed = c.seed;
    options.items = c.items;
    options.cancel = &cancel_;
    size_t index = 0;
    options.progress = [&](int64_t done, int64_t total) {
        if (done % 4 == 0 || done == total) post(host_event::ClaimProgress{index, done, total});
    };
    ClaimModel model;
    if (remote_) { // answers from the server; what needs internals says so (claim_lab.h)
        remote_->prepare_claims(model, options);
    } else {
        OpenedModel& l = *loaded_;
        model = claim_model_of(l, *l.backend, l.info.name + " (" + l.info.path + ")");
        options.open_model = open_claim_variant;
    }
    ClaimLab lab(std::move(model), std::move(data.value()), std::move(options));
    ClaimRunCallbacks callbacks;
    callbacks.on_start = [&](size_t i, const Claim& claim) {
        index = i;
        post(host_event::ClaimStarted{i, c.claims.size(), claim.id});
    };
    callbacks.on_done = [&](size_t i, const Claim&, const ClaimResult& result) { post(host_event::ClaimFinished{i, result}); };
    auto report = octo::run_claims(lab, c.claims, callbacks);
    if (!report) return post(host_event::ClaimsFailed{report.error()});
    report->version = c.version;
    report->date = utc_date_today();
    post(host_event::ClaimsFinished{std::move(report.value())});
}

void EngineHost::execute(const ConnectCommand& c) {
    stop_identifying();
    loaded_.reset(); // the local model's memory goes back: runs go to the server now
    remote_ = c.runner;
    const ModelInfo& info = remote_->info();
    log_message(LogLevel::Info, "connected to " + info.path + " (model " + info.name + ")");
    post(host_event::ModelLoaded{info});
}

void EngineHost::run_remote(const RunCommand& c) {
    RemoteRunner::Callbacks callbacks;
    bool started = false;
    callbacks.started = [&](RunTrace trace) {
        started = true;
        post(host_event::RunStarted{c.id, std::move(trace)});
    };
    callbacks.token = [&](const TraceToken& t) {
        TokenEvent e;
        e.id = t.id;
        e.bytes = t.bytes;
        e.visible_text = t.visible_text;
        e.logprobs = t.logprobs.value_or(TokenLogprobs{});
        e.ms = t.ms;
        e.probe = t.probe;
        post(host_event::Token{c.id, std::move(e), t.metrics, t.logprobs.has_value()});
    };
    callbacks.waiting = [&](const std::string& reason, int retry, int max_retries, double wait_s) {
        log_message(LogLevel::Warning, "run " + std::to_string(c.id) + ": " + reason + "; retry " + std::to_string(retry) + " of " +
                                           std::to_string(max_retries));
        post(host_event::RunWaiting{c.id, reason, retry, max_retries, wait_s});
    };
    auto outcome = remote_->run(c.spec, callbacks, &cancel_);
    if (!outcome) {
        log_message(outcome.error().code == ErrorCode::Cancelled ? LogLevel::Info : LogLevel::Warning,
                    "run " + std::to_string(c.id) + " on " + remote_->info().path + " stopped: " + outcome.error().message);
        if (!started) { // the views show the run that failed, with its spec
            RunTrace trace;
            trace.spec = c.spec;
            post(host_event::RunStarted{c.id, std::move(trace)});
        }
        return post(host_event::RunFailed{c.id, outcome.error()});
    }
    post(host_event::RunFinished{c.id, std::move(outcome.value()), remote_->info().default_metric});
}

void EngineHost::execute(const RunCommand& c) {
    if (remote_) return run_remote(c);
    if (!loaded_) return post(host_event::RunFailed{c.id, make_error(ErrorCode::InvalidArgument, "no model is loaded")});
    OpenedModel& l = *loaded_;
    auto prompt = build_prompt(l.model->file(), *l.tokenizer, c.spec);
    if (!prompt) return post(host_event::RunFailed{c.id, prompt.error()});
    const Precision precision = c.spec.precision.value_or(l.info.default_precision);
    RunTrace trace = start_trace(c.spec, precision, l.kv->types(), prompt.value(), *l.tokenizer);
    trace.default_metric = l.info.default_metric;
    post(host_event::RunStarted{c.id, std::move(trace)});

    RunSpec spec = c.spec;
    spec.precision = precision;
    const RunInputs inputs{.prompt_ids = prompt->ids, .expert_map = l.expert_map(), .cancel = &cancel_};
    InstrumentedCallbacks callbacks;
    callbacks.on_prompt = [&](const std::vector<TokenProbe>& probes, const std::vector<TokenMetrics>& metrics) {
        post(host_event::PromptMeasured{c.id, probes, metrics});
    };
    callbacks.on_token = [&](const TokenEvent& e, const TokenMetrics& metrics) {
        post(host_event::Token{c.id, e, metrics});
    };
    auto result = run_instrumented(*l.model, *l.backend, *l.tokenizer, l.map(), *l.kv, spec, inputs, callbacks);
    if (!result) {
        log_message(result.error().code == ErrorCode::Cancelled ? LogLevel::Info : LogLevel::Warning,
                    "run " + std::to_string(c.id) + " stopped: " + result.error().message);
        // A sticky device error disables CUDA for the process: the model is loaded again on the
        // CPU (queued first), and the message says so.
        const bool reload_on_cpu = result.error().code == ErrorCode::Device && !cuda_disabled_reason().empty();
        Error failure = result.error();
        if (reload_on_cpu) failure.message += " — CUDA is now disabled; reloading the model on the CPU";
        post(host_event::RunFailed{c.id, std::move(failure)});
        if (reload_on_cpu) {
            std::lock_guard lock(mutex_);
            queue_.push_front(LoadCommand{l.info.path, {"cpu", kv_types_exactly(l.kv->types())}}); // the same numbers
        }
        return;
    }
    post(host_event::RunFinished{c.id, outcome_of(result.value(), l.kv->pool().history()), result->default_metric});
}

} // namespace octo
