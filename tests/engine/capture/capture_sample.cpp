#include "tests/engine/capture/capture_sample.h"

#include <gtest/gtest.h>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/generation/run_spec.h"
#include "engine/kv/kv_store.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/loaded_model.h"

namespace octo::test {

Capture sample_capture(int64_t n_generated) {
    SyntheticModelSpec spec;
    spec.architecture = "octet";
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.router_groups = 4;
    spec.context_length = 64;
    const LoadedModel m = load_synthetic(spec);
    const Model& model = *m.model;
    auto backend = std::move(CpuBackend::create({2, std::nullopt}).value());
    auto tokenizer = std::move(Tokenizer::create(std::move(vocab_from_gguf(model.file()).value())).value());
    const HeadMap map = HeadMap::make_default(model.params().n_layer, model.params().n_head);
    auto kv = std::move(KvStore::create(*backend, model.params(), kv_pool_for_context(model.n_ctx())).value());

    Capture c;
    c.model = {"sample.gguf", "/models/sample.gguf", 123456, std::string(64, 'a'), "sample", "octet",
               model.params().n_layer, model.params().n_head, model.params().n_embd, 4321, model.n_ctx(), 4};
    c.app_version = "0.0.test";
    c.backend = backend->name();
    c.device = "test CPU";
    RunSpec run_spec;
    run_spec.prompt = "ab c";
    run_spec.system = "sys\xff"; // arbitrary bytes survive
    run_spec.stop_strings = {"zz", "\n\n"};
    run_spec.max_tokens = n_generated;
    run_spec.stop_at_eog = false;
    run_spec.sampling = {0.7f, 42, 5, 0.9f, 1.1f, 16, 1e-4f, -1e-4f, {{3, 1e-3f}}}; // penalties and bias too small to change the draw
    run_spec.disabled[2] = true;
    run_spec.dla = true;
    run_spec.record_attention = true;
    run_spec.n_ctx = 64;
    run_spec.threads = 2;
    run_spec.precision = Precision::Reference; // not octet's default, nor what an old file reads as
    c.head_map = map;
    auto prompt = build_prompt(model.file(), tokenizer, run_spec).value();
    auto run = run_instrumented(model, *backend, tokenizer, map, *kv, run_spec, {.prompt_ids = prompt.ids});
    EXPECT_TRUE(run.ok()) << run.error().message;
    c.trace = trace_of_run(run_spec, prompt, tokenizer, run.value(), kv->pool().history());
    RouteDecision route;
    route.route = 3;
    route.stage1_route = 1;
    route.top3 = {{1, 0.5f, 0.25, 0.75}, {3, 0.4f, 1.0, 0.9}, {0, 0.1f, 0.0, 0.1}};
    route.similarity = {0.1f, 0.5f, -0.2f, 0.4f, 0.0f, 0.3f, 0.2f, 1e-7f};
    route.composition = {0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.0078125};
    route.features = {{"rte-d.code", 3, 1.0, 0.8, {{0, 2}, {3, 4}}}};
    c.route = route;
    c.findings = {{"rte-c.vague", 2, Severity::Warning, FindingPlace::Prompt, 0, 2, "ab", {"detail", "细节"}, RuleSource::Article}};
    c.notes = {{0, "the first token"}, {static_cast<int64_t>(c.trace.n_prompt), "\xe4\xbd\xa0 first generated"}};
    // A logit lens at the prompt's last position: one row per layer, the chosen token's rank.
    NamedLens lens;
    lens.lens.position = static_cast<int64_t>(c.trace.n_prompt) - 1;
    lens.lens.chosen = c.trace.tokens[c.trace.n_prompt].id;
    for (int64_t l = 0; l < c.model.n_layer; ++l) {
        lens.lens.layers.push_back({{{7, 0.5f + 0.1f * static_cast<float>(l)}, {lens.lens.chosen, 0.25f}}, 2 - (l > 0 ? 1 : 0), 0.25f});
    }
    lens.texts = {{7, "seven"}, {lens.lens.chosen, "\xe4\xbd"}};
    c.lenses[lens.lens.position] = lens;
    return c;
}

} // namespace octo::test
