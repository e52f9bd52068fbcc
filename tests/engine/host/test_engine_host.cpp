// EngineHost: the engine thread behind the workbench, driven as the UI drives it (commands in,
// staged events out). Here: failures carry their ErrorCode, and the loaded model's identity for
// captures is hashed off the engine thread and announced after ModelLoaded.
// Covers: run_trace_events.cpp
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "engine/core/sha256.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/host/engine_host.h"
#include "engine/host/run_trace_events.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

std::string write_model(const std::string& name, uint32_t seed) {
    SyntheticModelSpec spec;
    spec.seed = seed;
    const std::string path = test::test_temp_path(name);
    auto bytes = make_synthetic_model(spec).value();
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

// Collects the host's events until `done` says enough (or 60 s pass).
class Events {
public:
    Events() : host_([this] { std::lock_guard lock(m_); ++notified_; cv_.notify_all(); }) {}
    EngineHost& host() { return host_; }

    template <class Done>
    bool wait(Done done) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (true) {
            for (HostEvent& e : host_.take_events()) all_.push_back(std::move(e));
            if (done(all_)) return true;
            std::unique_lock lock(m_);
            if (cv_.wait_until(lock, deadline, [&] { return notified_ > seen_; })) {
                seen_ = notified_;
            } else {
                return false;
            }
        }
    }
    const std::vector<HostEvent>& all() const { return all_; }

private:
    std::mutex m_;
    std::condition_variable cv_;
    size_t notified_ = 0, seen_ = 0;
    std::vector<HostEvent> all_;
    EngineHost host_; // last: destroyed first, so its threads stop before the rest goes
};

template <class E>
const E* last(const std::vector<HostEvent>& events) {
    for (auto it = events.rbegin(); it != events.rend(); ++it) {
        if (const auto* e = std::get_if<E>(&*it)) return e;
    }
    return nullptr;
}

class EngineHostTest : public ::testing::Test {
protected:
    void SetUp() override {
        data_ = test::test_temp_path("data");
        std::filesystem::remove_all(data_);
        ::setenv("XDG_DATA_HOME", data_.c_str(), 1); // the model index goes here
    }
    void TearDown() override { ::unsetenv("XDG_DATA_HOME"); }
    std::string data_;
};

TEST_F(EngineHostTest, TheLoadedModelIsIdentifiedAfterItLoads) {
    const std::string path = write_model("a.gguf", 1);
    Events ev;
    ev.host().load_model(path, {.backend = "cpu"});
    ASSERT_TRUE(ev.wait([](const auto& all) { return last<host_event::ModelIdentified>(all) != nullptr; }));
    const auto* identified = last<host_event::ModelIdentified>(ev.all());
    EXPECT_EQ(identified->path, path);
    EXPECT_EQ(identified->identity.sha256, sha256_file(path).value());
    EXPECT_EQ(identified->identity.size, std::filesystem::file_size(path));
    EXPECT_EQ(identified->identity.n_layer, 2);
    size_t loaded_at = 0, identified_at = 0;
    for (size_t i = 0; i < ev.all().size(); ++i) {
        if (std::holds_alternative<host_event::ModelLoaded>(ev.all()[i])) loaded_at = i;
        if (std::holds_alternative<host_event::ModelIdentified>(ev.all()[i])) identified_at = i;
    }
    EXPECT_LT(loaded_at, identified_at);
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(data_) / "octoscope" / "model-index.json"))
        << "remembered, so the file is hashed once";
}

TEST_F(EngineHostTest, AnotherLoadWinsAndFailuresCarryTheirCode) {
    const std::string a = write_model("first.gguf", 2), b = write_model("second.gguf", 3);
    Events ev;
    ev.host().load_model(a, {.backend = "cpu"});
    ev.host().load_model(b, {.backend = "cpu"});
    ASSERT_TRUE(ev.wait([&](const auto& all) {
        const auto* id = last<host_event::ModelIdentified>(all);
        return id && id->path == b;
    }));
    EXPECT_EQ(last<host_event::ModelIdentified>(ev.all())->identity.sha256, sha256_file(b).value());

    ev.host().load_model(test::test_temp_path("missing.gguf"), {.backend = "cpu"});
    ASSERT_TRUE(ev.wait([](const auto& all) { return last<host_event::LoadFailed>(all) != nullptr; }));
    EXPECT_EQ(last<host_event::LoadFailed>(ev.all())->error.code, ErrorCode::Io);
}

TEST_F(EngineHostTest, ARunWithoutAModelFailsWithItsCode) {
    Events ev;
    RunSpec s;
    s.prompt = "hello";
    const uint64_t id = ev.host().run(s);
    ASSERT_TRUE(ev.wait([](const auto& all) { return last<host_event::RunFailed>(all) != nullptr; }));
    const auto* failed = last<host_event::RunFailed>(ev.all());
    EXPECT_EQ(failed->run_id, id);
    EXPECT_EQ(failed->error.code, ErrorCode::InvalidArgument);
    EXPECT_EQ(failed->error.message, "no model is loaded");
}

// The trace the host's events build is the one a CLI run makes from its result: the same tokens,
// probes, metrics and outcome (one description of a run, whoever ran it).
TEST_F(EngineHostTest, EventsBuildTheTraceACliRunMakes) {
    const std::string path = write_model("trace.gguf", 5);
    RunSpec s;
    s.prompt = "hello there";
    s.max_tokens = 6;
    s.stop_at_eog = false;
    s.dla = true;

    Events ev;
    ev.host().load_model(path, {.backend = "cpu"});
    const uint64_t id = ev.host().run(s);
    ASSERT_TRUE(ev.wait([&](const auto& all) {
        const auto* f = last<host_event::RunFinished>(all);
        return f && f->run_id == id;
    }));
    std::optional<RunTrace> hosted;
    for (const HostEvent& e : ev.all()) {
        if (const auto* started = std::get_if<host_event::RunStarted>(&e); started && started->run_id == id) hosted = started->trace;
        if (!hosted) continue;
        if (const auto* p = std::get_if<host_event::PromptMeasured>(&e)) record_event(*hosted, *p);
        if (const auto* t = std::get_if<host_event::Token>(&e)) record_event(*hosted, *t);
        if (const auto* f = std::get_if<host_event::RunFinished>(&e)) record_event(*hosted, *f);
    }
    ASSERT_TRUE(hosted && hosted->outcome);

    auto opened = open_model(path, {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(opened) << opened.error().message;
    OpenedModel& m = opened.value();
    auto prompt = build_prompt(m.model->file(), *m.tokenizer, s).value();
    auto run = run_instrumented(*m.model, *m.backend, *m.tokenizer, m.map(), *m.kv, s, {.prompt_ids = prompt.ids});
    ASSERT_TRUE(run) << run.error().message;
    const RunTrace direct = trace_of_run(s, prompt, *m.tokenizer, run.value(), m.kv->pool().history());

    EXPECT_EQ(hosted->prompt_text, direct.prompt_text);
    EXPECT_EQ(hosted->precision, direct.precision);
    EXPECT_EQ(hosted->default_metric, direct.default_metric);
    ASSERT_EQ(hosted->n_prompt, direct.n_prompt);
    ASSERT_EQ(hosted->tokens.size(), direct.tokens.size());
    EXPECT_EQ(direct.n_generated(), 6u);
    for (size_t i = 0; i < direct.tokens.size(); ++i) {
        const TraceToken& a = hosted->tokens[i];
        const TraceToken& b = direct.tokens[i];
        EXPECT_EQ(a.id, b.id) << i;
        EXPECT_EQ(a.bytes, b.bytes) << i;
        EXPECT_EQ(a.generated, b.generated) << i;
        EXPECT_EQ(a.visible_text, b.visible_text) << i;
        EXPECT_EQ(a.probe.head_norms, b.probe.head_norms) << i;
        EXPECT_EQ(a.probe.dla, b.probe.dla) << i;
        ASSERT_TRUE(a.metrics.norm_share && b.metrics.norm_share) << i;
        EXPECT_EQ(*a.metrics.norm_share, *b.metrics.norm_share) << i;
        ASSERT_TRUE(a.metrics.dla && b.metrics.dla) << i;
        EXPECT_EQ(*a.metrics.dla, *b.metrics.dla) << i;
        EXPECT_EQ(a.logprobs.has_value(), b.logprobs.has_value()) << i;
    }
    EXPECT_EQ(hosted->outcome->stop_reason, direct.outcome->stop_reason);
    EXPECT_EQ(hosted->outcome->text, direct.outcome->text);
    EXPECT_EQ(hosted->outcome->n_decoded, direct.outcome->n_decoded);
    EXPECT_EQ(hosted->outcome->evaluated_tokens, direct.outcome->evaluated_tokens);
    EXPECT_EQ(hosted->outcome->kv_blocks, direct.outcome->kv_blocks);
    EXPECT_EQ(hosted->outcome->kv_history.size(), direct.outcome->kv_history.size());
}

// The workbench runs a spec as the CLI does: stop strings (a capture's too) end the run.
TEST_F(EngineHostTest, RunsHonourTheSpecsStopStrings) {
    const std::string path = write_model("stops.gguf", 4);
    Events ev;
    ev.host().load_model(path, {.backend = "cpu"});
    RunSpec s;
    s.prompt = "hello";
    s.max_tokens = 40;
    s.stop_at_eog = false;
    const uint64_t free_run = ev.host().run(s);
    ASSERT_TRUE(ev.wait([&](const auto& all) {
        const auto* f = last<host_event::RunFinished>(all);
        return f && f->run_id == free_run;
    }));
    std::string text;
    for (const HostEvent& e : ev.all()) {
        if (const auto* t = std::get_if<host_event::Token>(&e); t && t->run_id == free_run) text += t->event.bytes;
    }
    ASSERT_GE(text.size(), 3u);
    s.stop_strings = {text.substr(1, 2)}; // two bytes the free run produced after its first token
    const uint64_t stopped = ev.host().run(s);
    ASSERT_TRUE(ev.wait([&](const auto& all) {
        const auto* f = last<host_event::RunFinished>(all);
        return f && f->run_id == stopped;
    }));
    EXPECT_EQ(last<host_event::RunFinished>(ev.all())->outcome.stop_reason, StopReason::StopString);
}

// Every queued run settles once: finished, failed, or dropped when a newer run replaced it.
TEST_F(EngineHostTest, EveryRunSettlesOnceAndReplacedRunsAreDropped) {
    Events ev;
    ev.host().load_model(write_model("drops.gguf", 5), {.backend = "cpu"});
    RunSpec s;
    s.prompt = "hello";
    s.max_tokens = 30;
    s.stop_at_eog = false;
    const std::vector<uint64_t> ids = {ev.host().run(s), ev.host().run(s), ev.host().run(s)};
    const auto settled = [](const std::vector<HostEvent>& all, uint64_t id) {
        int n = 0;
        for (const HostEvent& e : all) {
            if (const auto* f = std::get_if<host_event::RunFinished>(&e); f && f->run_id == id) ++n;
            if (const auto* f = std::get_if<host_event::RunFailed>(&e); f && f->run_id == id) ++n;
            if (const auto* d = std::get_if<host_event::RunDropped>(&e); d && d->run_id == id) ++n;
        }
        return n;
    };
    ASSERT_TRUE(ev.wait([&](const auto& all) { return settled(all, ids[2]) > 0; }));
    int dropped = 0;
    for (uint64_t id : ids) {
        EXPECT_EQ(settled(ev.all(), id), 1) << id;
        for (const HostEvent& e : ev.all()) {
            if (const auto* d = std::get_if<host_event::RunDropped>(&e); d && d->run_id == id) ++dropped;
        }
    }
    EXPECT_GE(dropped, 1) << "three runs queued faster than one can run";
    const auto* last_done = last<host_event::RunFinished>(ev.all());
    ASSERT_TRUE(last_done);
    EXPECT_EQ(last_done->run_id, ids[2]);
}

} // namespace
} // namespace octo
