// Continuous batching (engine/serve/batch_scheduler.h): several sequences evaluated in one
// forward pass give every sequence the logits and measurements of a solo run, bit for bit, on a
// dense model, a mixture of experts and octet (router gates); incompatible sessions, a repeated
// session and a pool too small are refused with every session left as it was. The scheduler
// runs many requests at once with each request's tokens those of a solo run, cancels a sequence
// whose client went away (its blocks go back to the pool) and refuses a request when the queue
// is full.
// Covers: batch_scheduler.cpp
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <span>
#include <thread>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/generator.h"
#include "engine/generation/prompt_builder.h"
#include "engine/host/model_setup.h"
#include "engine/inference/session.h"
#include "engine/kv/kv_store.h"
#include "engine/sampling/logprobs.h"
#include "engine/serve/batch_scheduler.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::bit_identical;

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

std::vector<int32_t> prompt_ids(size_t n, int32_t salt) {
    std::vector<int32_t> v{1};
    for (size_t i = 1; i < n; ++i) v.push_back(static_cast<int32_t>(4 + (i * 7 + static_cast<size_t>(salt) * 13) % 90));
    return v;
}

int32_t argmax(std::span<const float> logits) {
    return static_cast<int32_t>(std::max_element(logits.begin(), logits.end()) - logits.begin());
}

struct Trace {
    std::vector<std::vector<float>> logits;     // per step, after each decoded token
    std::vector<std::vector<float>> head_norms; // per step
    std::vector<std::vector<float>> gates;      // per step
};

SessionOptions measured(KvStore& kv) {
    SessionOptions o;
    o.kv = &kv;
    o.instrument.head_norms = true;
    return o;
}

// Each prompt decoded greedily for `steps` tokens, alone.
std::vector<Trace> solo(const Model& m, Backend& b, KvStore& kv, const std::vector<std::vector<int32_t>>& prompts, int steps) {
    std::vector<Trace> out;
    for (const auto& p : prompts) {
        auto s = std::move(Session::create(m, b, measured(kv)).value());
        const int64_t reused = s->start(p);
        EXPECT_TRUE(s->eval(std::span<const int32_t>(p).subspan(static_cast<size_t>(reused))).ok());
        Trace t;
        for (int k = 0; k < steps; ++k) {
            const int32_t next[1] = {argmax(s->logits())};
            auto r = s->eval(next);
            EXPECT_TRUE(r.ok()) << r.error().message;
            t.logits.emplace_back(s->logits().begin(), s->logits().end());
            t.head_norms.push_back(s->probes().back().head_norms);
            t.gates.push_back(s->probes().back().gates);
        }
        out.push_back(std::move(t));
    }
    return out;
}

// The same prompts decoded together, one eval_batch per step.
std::vector<Trace> batched(const Model& m, Backend& b, KvStore& kv, const std::vector<std::vector<int32_t>>& prompts, int steps) {
    std::vector<std::unique_ptr<Session>> sessions;
    for (const auto& p : prompts) {
        sessions.push_back(std::move(Session::create(m, b, measured(kv)).value()));
        const int64_t reused = sessions.back()->start(p);
        EXPECT_TRUE(sessions.back()->eval(std::span<const int32_t>(p).subspan(static_cast<size_t>(reused))).ok());
    }
    std::vector<Trace> out(prompts.size());
    for (int k = 0; k < steps; ++k) {
        std::vector<Session*> all;
        std::vector<int32_t> next;
        for (auto& s : sessions) {
            all.push_back(s.get());
            next.push_back(argmax(s->logits()));
        }
        const Status st = Session::eval_batch(all, next);
        EXPECT_TRUE(st.ok()) << st.error().message;
        for (size_t i = 0; i < sessions.size(); ++i) {
            out[i].logits.emplace_back(sessions[i]->logits().begin(), sessions[i]->logits().end());
            out[i].head_norms.push_back(sessions[i]->probes().back().head_norms);
            out[i].gates.push_back(sessions[i]->probes().back().gates);
        }
    }
    return out;
}

void expect_same(const std::vector<Trace>& a, const std::vector<Trace>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_EQ(a[i].logits.size(), b[i].logits.size());
        for (size_t k = 0; k < a[i].logits.size(); ++k) {
            EXPECT_TRUE(bit_identical(a[i].logits[k], b[i].logits[k])) << "sequence " << i << " step " << k;
            EXPECT_TRUE(bit_identical(a[i].head_norms[k], b[i].head_norms[k])) << "sequence " << i << " step " << k;
            EXPECT_TRUE(bit_identical(a[i].gates[k], b[i].gates[k])) << "sequence " << i << " step " << k;
        }
    }
}

const std::vector<std::vector<int32_t>> kPrompts = {prompt_ids(5, 1), prompt_ids(19, 2), prompt_ids(2, 3), prompt_ids(33, 4),
                                                    prompt_ids(19, 2)}; // the last repeats one: prefix reuse across sequences

void check_model(const SyntheticModelSpec& spec) {
    auto loaded = test::load_synthetic(spec);
    ASSERT_TRUE(loaded.model);
    auto b = backend();
    auto kv_solo = std::move(KvStore::create(*b, loaded.model->params(), KvPoolConfig{16, 64}).value());
    auto kv_batch = std::move(KvStore::create(*b, loaded.model->params(), KvPoolConfig{16, 64}).value());
    const auto a = solo(*loaded.model, *b, *kv_solo, kPrompts, 7);
    const auto c = batched(*loaded.model, *b, *kv_batch, kPrompts, 7);
    expect_same(a, c);
}

TEST(BatchDecode, DenseModelRowsMatchSoloRuns) {
    check_model({.n_head = 8, .n_head_kv = 4, .n_layer = 2, .context_length = 128, .seed = 5});
}

TEST(BatchDecode, MixtureOfExpertsRowsMatchSoloRuns) {
    SyntheticModelSpec s{.n_head = 4, .n_head_kv = 2, .n_layer = 2, .context_length = 128, .seed = 6};
    s.n_expert = 4;
    s.n_expert_used = 2;
    s.n_ff_exp = 256;
    check_model(s);
}

TEST(BatchDecode, OctetGatesMatchSoloRuns) {
    SyntheticModelSpec s{.architecture = "octet", .n_head = 8, .n_head_kv = 8, .n_layer = 2, .context_length = 128, .seed = 7};
    check_model(s);
}

TEST(BatchDecode, RefusesIncompatibleRepeatedAndOversizedBatchesLeavingSessionsUnchanged) {
    auto loaded = test::load_synthetic({.n_head = 4, .n_head_kv = 2, .n_layer = 2, .context_length = 64, .seed = 8});
    ASSERT_TRUE(loaded.model);
    auto b = backend();
    auto kv = std::move(KvStore::create(*b, loaded.model->params(), KvPoolConfig{4, 6}).value()); // 24 positions in all
    auto a = std::move(Session::create(*loaded.model, *b, measured(*kv)).value());
    SessionOptions ablated = measured(*kv);
    ablated.ablation.heads.assign(static_cast<size_t>(2 * 4), 0);
    ablated.ablation.heads[1] = 1;
    auto c = std::move(Session::create(*loaded.model, *b, ablated).value());
    const auto p = prompt_ids(8, 1);
    a->start(p);
    ASSERT_TRUE(a->eval(p).ok());
    c->start(p);
    ASSERT_TRUE(c->eval(p).ok());

    std::vector<Session*> mixed{a.get(), c.get()};
    std::vector<int32_t> two{5, 6};
    auto st = Session::eval_batch(mixed, two);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::InvalidArgument);
    std::vector<Session*> twice{a.get(), a.get()};
    st = Session::eval_batch(twice, two);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(a->position(), 8);

    // Three sequences of 8 fill the pool's 24 cells; a ninth position for each does not fit.
    auto d = std::move(Session::create(*loaded.model, *b, measured(*kv)).value());
    const auto q = prompt_ids(8, 2);
    d->start(q);
    ASSERT_TRUE(d->eval(q).ok());
    c.reset(); // its cells become cached (evictable), which the batch may take
    auto e = std::move(Session::create(*loaded.model, *b, measured(*kv)).value());
    const auto r = prompt_ids(8, 3);
    e->start(r);
    ASSERT_TRUE(e->eval(r).ok());
    std::vector<Session*> full{a.get(), d.get(), e.get()};
    std::vector<int32_t> three{5, 6, 7};
    st = Session::eval_batch(full, three);
    ASSERT_FALSE(st.ok());
    EXPECT_EQ(st.error().code, ErrorCode::OutOfMemory);
    for (Session* s : full) EXPECT_EQ(s->position(), 8);
    // Still usable: a's next token alone gives what a fresh session computes for the same prompt
    // and next token.
    e.reset();
    const int32_t next[1] = {5};
    auto got = a->eval(next);
    ASSERT_TRUE(got.ok()) << got.error().message;
    const std::vector<float> after(got->begin(), got->end());
    auto kv2 = std::move(KvStore::create(*b, loaded.model->params(), KvPoolConfig{4, 6}).value());
    auto fresh = std::move(Session::create(*loaded.model, *b, measured(*kv2)).value());
    fresh->start(p);
    ASSERT_TRUE(fresh->eval(p).ok());
    auto want = fresh->eval(next);
    ASSERT_TRUE(want.ok());
    EXPECT_TRUE(bit_identical(after, std::vector<float>(want->begin(), want->end())));
}

// --- the scheduler, on the built-in octet -----------------------------------------------------

const std::string kOctet = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/octet/octet.gguf";

struct Collected {
    std::map<int, std::vector<int32_t>> ids; // by choice
    std::map<int, std::vector<TokenMetrics>> metrics;
    std::map<int, StopReason> stops;
    std::map<int, Error> failures;
    bool prompt_seen = false;
};

Collected collect(serve::RequestChannel& channel, std::function<void(const serve::SequenceEvent&)> each = {}) {
    Collected c;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!channel.finished() && std::chrono::steady_clock::now() < deadline) {
        for (const serve::SequenceEvent& e : channel.wait(std::chrono::milliseconds(100))) {
            if (each) each(e);
            switch (e.kind) {
            case serve::SequenceEvent::Kind::Prompt: c.prompt_seen = true; break;
            case serve::SequenceEvent::Kind::Token:
                c.ids[e.choice].push_back(e.token.id);
                c.metrics[e.choice].push_back(e.metrics);
                break;
            case serve::SequenceEvent::Kind::Done: c.stops[e.choice] = e.result.stop_reason; break;
            case serve::SequenceEvent::Kind::Failed: c.failures.emplace(e.choice, e.error); break;
            }
        }
    }
    EXPECT_TRUE(channel.finished()) << "timed out";
    return c;
}

// A sampled run of `text` as the scheduler takes it (no metrics).
serve::SequenceRequest sampled(const OpenedModel& m, const std::string& text, uint64_t seed, int64_t max_tokens) {
    serve::SequenceRequest r;
    r.spec.prompt = text;
    r.spec.max_tokens = max_tokens;
    r.spec.sampling.temperature = 0.9f;
    r.spec.sampling.seed = seed;
    r.spec.record_attention = false;
    r.prompt_ids = build_prompt(m.model->file(), *m.tokenizer, r.spec).value().ids;
    return r;
}

// The same run alone, in `kv`.
Result<InstrumentedResult> solo(const OpenedModel& m, KvStore& kv, const serve::SequenceRequest& r) {
    return run_instrumented(*m.model, *m.backend, *m.tokenizer, m.map(), kv, r.spec, {.prompt_ids = r.prompt_ids});
}

class Scheduler : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = open_model(kOctet, {.backend = "cpu", .threads = 2, .kv_sequences = 3});
        ASSERT_TRUE(opened.ok()) << opened.error().message;
        m_ = std::make_unique<OpenedModel>(std::move(opened.value()));
    }
    serve::ServedModel served() {
        return {m_->model.get(), m_->tokenizer.get(), m_->backend.get(), &m_->map(), nullptr, m_->kv.get()};
    }
    std::unique_ptr<OpenedModel> m_;
};

TEST_F(Scheduler, ManyRequestsAtOnceGiveEachRequestsSoloTokens) {
    const std::vector<std::string> texts = {"What is 35% of 240?", "Add 17 and 26.", "What is 35% of 240?",
                                            "Is 'cat' a noun or a verb?", "Add 17 and 26.", "What is 12 + 9?"};
    // Requests 3 and 5 ask for measurements, 5 with direct logit attribution too; the first three
    // are alike, so that they run as one batch.
    const size_t kDla = 5;
    const auto request = [&](size_t i) {
        serve::SequenceRequest r = sampled(*m_, texts[i], 40 + i, 12);
        r.spec.dla = i == kDla;
        r.metrics = i == 3 || i == kDla;
        return r;
    };
    // Solo first, each alone in a fresh pool.
    std::vector<std::vector<int32_t>> want;
    std::vector<TokenMetrics> want_dla;
    for (size_t i = 0; i < texts.size(); ++i) {
        auto kv = std::move(KvStore::create(*m_->backend, m_->model->params(), kv_pool_for_context(m_->model->n_ctx())).value());
        auto r = solo(*m_, *kv, request(i));
        ASSERT_TRUE(r.ok()) << r.error().message;
        std::vector<int32_t> ids;
        for (const TokenEvent& e : r->generation.tokens) ids.push_back(e.id);
        want.push_back(ids);
        if (i == kDla) want_dla = r->token_metrics;
    }
    serve::BatchScheduler scheduler(served(), {.parallel = 3, .max_queue = 16});
    std::vector<std::shared_ptr<serve::RequestChannel>> channels;
    for (size_t i = 0; i < texts.size(); ++i) {
        channels.push_back(std::make_shared<serve::RequestChannel>(1));
        ASSERT_TRUE(scheduler.submit({request(i)}, channels.back()));
    }
    for (size_t i = 0; i < texts.size(); ++i) {
        const Collected c = collect(*channels[i]);
        EXPECT_TRUE(c.failures.empty());
        EXPECT_TRUE(c.prompt_seen);
        EXPECT_EQ(c.ids.at(0), want[i]) << texts[i];
        if (i == kDla) { // the measurements too, direct logit attribution included
            ASSERT_EQ(c.metrics.at(0).size(), want_dla.size());
            for (size_t t = 0; t < want_dla.size(); ++t) {
                ASSERT_TRUE(c.metrics.at(0)[t].dla && want_dla[t].dla);
                EXPECT_EQ(*c.metrics.at(0)[t].dla, *want_dla[t].dla) << "token " << t;
                EXPECT_EQ(*c.metrics.at(0)[t].gates, *want_dla[t].gates) << "token " << t;
            }
        }
    }
    const serve::SchedulerStats stats = scheduler.stats();
    EXPECT_EQ(stats.completed, static_cast<int64_t>(texts.size()));
    EXPECT_GT(stats.batched_tokens, stats.steps) << "no step evaluated two sequences together";
}

// A run that asks for other KV types than its pool stores is refused, naming both; in a pool of
// those types it runs.
TEST_F(Scheduler, ARunInAPoolOfOtherKvTypesIsRefused) {
    serve::SequenceRequest r = sampled(*m_, "Add 17 and 26.", 3, 4);
    r.spec.kv_type_k = TensorType::F16;
    auto refused = solo(*m_, *m_->kv, r);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.error().message.find("keys f16, values any"), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("keys f32, values f32"), std::string::npos) << refused.error().message;
    auto f16 = std::move(KvStore::create(*m_->backend, m_->model->params(), kv_pool_for_context(m_->model->n_ctx()),
                                         {TensorType::F16, TensorType::F32})
                             .value());
    auto ran = solo(*m_, *f16, r);
    ASSERT_TRUE(ran.ok()) << ran.error().message;
    EXPECT_EQ(ran->generation.tokens.size(), 4u);
}

TEST_F(Scheduler, ChoicesOfOneRequestUseSuccessiveSeeds) {
    serve::BatchScheduler scheduler(served(), {.parallel = 3, .max_queue = 4});
    auto channel = std::make_shared<serve::RequestChannel>(3);
    std::vector<serve::SequenceRequest> seqs;
    for (uint64_t i = 0; i < 3; ++i) seqs.push_back(sampled(*m_, "What is 12 + 9?", 100 + i, 8));
    ASSERT_TRUE(scheduler.submit(seqs, channel));
    const Collected c = collect(*channel);
    ASSERT_EQ(c.ids.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        auto kv = std::move(KvStore::create(*m_->backend, m_->model->params(), kv_pool_for_context(m_->model->n_ctx())).value());
        auto r = solo(*m_, *kv, sampled(*m_, "What is 12 + 9?", 100 + static_cast<uint64_t>(i), 8));
        ASSERT_TRUE(r.ok());
        std::vector<int32_t> ids;
        for (const TokenEvent& e : r->generation.tokens) ids.push_back(e.id);
        EXPECT_EQ(c.ids.at(i), ids) << "choice " << i;
    }
}

TEST_F(Scheduler, ACancelledSequenceEndsAndReturnsItsBlocks) {
    serve::BatchScheduler scheduler(served(), {.parallel = 2, .max_queue = 4});
    auto channel = std::make_shared<serve::RequestChannel>(1);
    serve::SequenceRequest r = sampled(*m_, "What is 35% of 240?", 3, 400);
    r.spec.stop_at_eog = false; // would run to max_tokens
    ASSERT_TRUE(scheduler.submit({r}, channel));
    int tokens = 0;
    const Collected c = collect(*channel, [&](const serve::SequenceEvent& e) {
        if (e.kind == serve::SequenceEvent::Kind::Token && ++tokens == 3) channel->cancel();
    });
    ASSERT_EQ(c.stops.count(0), 1u);
    EXPECT_EQ(c.stops.at(0), StopReason::Cancelled);
    EXPECT_LT(c.ids.at(0).size(), 50u);
    const serve::SchedulerStats s = scheduler.stats();
    EXPECT_EQ(s.cancelled, 1);
    EXPECT_EQ(s.running, 0);
    EXPECT_EQ(s.kv.blocks_used, 0) << "the cancelled sequence still holds blocks";
}

TEST_F(Scheduler, AFullQueueRefusesAndShutdownEndsEverything) {
    auto scheduler = std::make_unique<serve::BatchScheduler>(served(), serve::SchedulerOptions{.parallel = 1, .max_queue = 1});
    serve::SequenceRequest r = sampled(*m_, "What is 35% of 240?", 3, 2000);
    r.spec.stop_at_eog = false;
    auto running = std::make_shared<serve::RequestChannel>(1);
    ASSERT_TRUE(scheduler->submit({r}, running));
    // Wait until it runs, so that the next one waits in the queue.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (scheduler->stats().running == 0 && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    auto waiting = std::make_shared<serve::RequestChannel>(1);
    ASSERT_TRUE(scheduler->submit({r}, waiting));
    auto refused = std::make_shared<serve::RequestChannel>(1);
    EXPECT_FALSE(scheduler->submit({r}, refused));
    scheduler.reset(); // shutdown: both end at once
    const Collected r1 = collect(*running), r2 = collect(*waiting);
    ASSERT_EQ(r1.failures.count(0), 1u);
    EXPECT_EQ(r1.failures.at(0).code, ErrorCode::Cancelled);
    ASSERT_EQ(r2.failures.count(0), 1u);
    EXPECT_NE(r2.failures.at(0).message.find("stopping"), std::string::npos);
    EXPECT_TRUE(r2.ids.empty());
}

} // namespace
} // namespace octo
