// octoscope-cli generate against llama.cpp's greedy runs on stories260K (../shared/refdata).
#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <fstream>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/shared_data.h"

namespace {

using octo::test::run_cli;

struct Reference {
    std::string model;
    nlohmann::json cases;
};

std::optional<Reference> stories_reference() {
    auto dir = octo::test::refdata_dir();
    if (!dir) return std::nullopt;
    std::ifstream in(*dir / "stories260K_ref.json");
    return Reference{(*dir / "stories260K.gguf").string(), nlohmann::json::parse(in)["cases"]};
}

// log-softmax of the reference logits, computed here in double precision.
std::vector<double> log_softmax(const std::vector<double>& logits) {
    double max = logits[0];
    for (double v : logits) max = std::max(max, v);
    double sum = 0;
    for (double v : logits) sum += std::exp(v - max);
    std::vector<double> out;
    for (double v : logits) out.push_back(v - max - std::log(sum));
    return out;
}

TEST(CliGenerate, ReproducesEveryReferenceGreedyRun) {
    auto ref = stories_reference();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    for (const auto& c : ref->cases) {
        const std::string prompt = c["prompt"];
        auto run = run_cli({"generate", "--model", ref->model, "--prompt", prompt, "--max-tokens", "48",
                            "--ignore-eos", "--json"});
        ASSERT_EQ(run.exit_status, 0) << run.err;
        auto j = run.json();
        EXPECT_EQ(j["prompt_ids"], c["prompt_ids"]) << prompt;
        EXPECT_EQ(j["generated_ids"], c["generated_ids"]) << prompt;
        EXPECT_EQ(j["text"], c["generated_text"]) << prompt;
        ASSERT_EQ(j["tokens"].size(), 48u);

        // First token: log-probabilities of the top-5 against the reference's full logits, with
        // its default F16 cache (the default here too, at the model's reference precision).
        auto expected = log_softmax(c["first_step_logits_kv_f16"].get<std::vector<double>>());
        const auto& top = j["tokens"][0]["top"];
        ASSERT_EQ(top.size(), 5u);
        for (const auto& alt : top) {
            EXPECT_NEAR(alt["logprob"].get<double>(), expected[alt["id"].get<size_t>()], 1e-3) << prompt;
        }
        for (const auto& t : j["tokens"]) {
            EXPECT_EQ(t["id"], t["top"][0]["id"]) << "greedy picks the most likely token";
            EXPECT_DOUBLE_EQ(t["logprob"].get<double>(), t["top"][0]["logprob"].get<double>());
            EXPECT_LE(t["logprob"].get<double>(), 0.0);
            EXPECT_GE(t["ms"].get<double>(), 0.0);
        }
        for (const char* key : {"prefill_ms", "decode_ms", "tokens_per_s"}) {
            EXPECT_TRUE(j["timing"].contains(key)) << key;
        }
    }
}

// The default cache (F16 at reference precision) gives the first token's log-probabilities of
// llama.cpp's F16-cache logits, nearer to them than to the F32 cache's; --kv-type f32 the other
// way round.
TEST(CliGenerate, DefaultAndF32KvCachesMatchTheReferencesOwn) {
    auto ref = stories_reference();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    for (size_t i : {size_t{0}, size_t{4}}) {
        const auto& c = ref->cases[i];
        const std::string prompt = c["prompt"];
        const auto f16 = log_softmax(c["first_step_logits_kv_f16"].get<std::vector<double>>());
        const auto f32 = log_softmax(c["first_step_logits_kv_f32"].get<std::vector<double>>());
        for (const bool f32_cache : {false, true}) {
            std::vector<std::string> args = {"generate", "--model", ref->model, "--prompt", prompt, "--max-tokens", "8",
                                             "--ignore-eos", "--json"};
            if (f32_cache) args.insert(args.end(), {"--kv-type", "f32"});
            auto run = run_cli(args);
            ASSERT_EQ(run.exit_status, 0) << run.err;
            auto j = run.json();
            const auto ids = c["generated_ids"].get<std::vector<int>>();
            EXPECT_EQ(j["generated_ids"], nlohmann::json(std::vector<int>(ids.begin(), ids.begin() + 8))) << prompt;
            double err16 = 0, err32 = 0;
            for (const auto& alt : j["tokens"][0]["top"]) {
                const auto id = alt["id"].get<size_t>();
                err16 = std::max(err16, std::abs(alt["logprob"].get<double>() - f16[id]));
                err32 = std::max(err32, std::abs(alt["logprob"].get<double>() - f32[id]));
            }
            EXPECT_LT(f32_cache ? err32 : err16, 1e-4) << prompt << (f32_cache ? " (f32 cache)" : " (default cache)");
            EXPECT_LT(f32_cache ? err32 : err16, f32_cache ? err16 : err32) << prompt;
        }
    }
}

TEST(CliGenerate, SameTokensWhateverTheThreadCount) {
    auto ref = stories_reference();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    std::vector<nlohmann::json> runs;
    for (const char* threads : {"1", "2", "3"}) {
        auto run = run_cli({"generate", "--model", ref->model, "--prompt", "The cat", "--max-tokens", "16",
                            "--temperature", "0.8", "--seed", "7", "--threads", threads, "--json"});
        ASSERT_EQ(run.exit_status, 0) << run.err;
        runs.push_back(run.json());
    }
    for (const auto& r : runs) {
        EXPECT_EQ(r["generated_ids"], runs[0]["generated_ids"]);
        for (size_t k = 0; k < r["tokens"].size(); ++k) {
            EXPECT_EQ(r["tokens"][k]["logprob"], runs[0]["tokens"][k]["logprob"]) << "bit-identical logits";
        }
    }
}

TEST(CliGenerate, StopsAtAStopString) {
    auto ref = stories_reference();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    // The reference continuation of "Once upon a time" starts ", there was a little girl".
    auto run = run_cli({"generate", "--model", ref->model, "--prompt", "Once upon a time", "--max-tokens", "48",
                        "--stop", " was", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["text"], ", there");
    EXPECT_EQ(j["stop_reason"], "stop_string");
    EXPECT_EQ(j["generated_ids"].size(), 3u); // ",", " there", " was"
}

TEST(CliGenerate, ClearErrors) {
    auto ref = stories_reference();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    auto chat = run_cli({"generate", "--model", ref->model, "--prompt", "hi", "--chat", "--json"});
    EXPECT_EQ(chat.exit_status, 1);
    EXPECT_NE(chat.json()["error"].get<std::string>().find("chat template"), std::string::npos) << chat.out;

    auto too_long = run_cli({"generate", "--model", ref->model, "--prompt", "Once upon a time there was a dog",
                             "--ctx-size", "4", "--json"});
    EXPECT_EQ(too_long.exit_status, 1);
    EXPECT_NE(too_long.json()["error"].get<std::string>().find("the context holds 4"), std::string::npos)
        << too_long.out;
}

// --parse-special turns a control token's text into that token (the built-in model's <|eos|> is
// id 2046); without it the text is spelled out.
TEST(CliGenerate, ParseSpecialMatchesControlTokenTexts) {
    const auto ids = [](std::vector<std::string> args) {
        auto run = run_cli(std::move(args));
        EXPECT_EQ(run.exit_status, 0) << run.err;
        return run.json()["prompt_ids"].get<std::vector<int32_t>>();
    };
    const std::vector<int32_t> parsed =
        ids({"generate", "--prompt", "a<|eos|>b", "--max-tokens", "1", "--json", "--parse-special"});
    const std::vector<int32_t> spelled = ids({"generate", "--prompt", "a<|eos|>b", "--max-tokens", "1", "--json"});
    EXPECT_NE(std::find(parsed.begin(), parsed.end(), 2046), parsed.end());
    EXPECT_EQ(std::find(spelled.begin(), spelled.end(), 2046), spelled.end());
    EXPECT_GT(spelled.size(), parsed.size());
}

TEST(CliGenerate, ChatModeRendersTheModelsTemplate) {
    // A ChatML template as Qwen-style models ship it; the synthetic model's vocabulary is
    // printable ASCII, so the rendered text is tokenized character by character.
    octo::SyntheticModelSpec spec;
    spec.context_length = 256; // the rendered prompt is one token per character
    spec.chat_template =
        "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + "
        "'<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";
    const std::string path = octo::test::temp_path("chat.gguf");
    {
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                    static_cast<std::streamsize>(bytes.size()));
    }
    auto run = run_cli({"generate", "--model", path, "--prompt", "Hi", "--chat", "--system", "Be brief.",
                        "--max-tokens", "2", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["prompt_text"],
              "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    EXPECT_EQ(j["prompt_ids"][0], 1) << "BOS first: the vocabulary asks for it";
    std::remove(path.c_str());

    auto system_without_chat = run_cli({"generate", "--model", path, "--prompt", "Hi", "--system", "S"});
    EXPECT_EQ(system_without_chat.exit_status, 2);
}

// A gpt-oss (harmony) template: --reasoning-effort sets the system message's level (medium when
// not given); another level is a usage error.
TEST(CliGenerate, ReasoningEffortReachesTheHarmonyPrompt) {
    octo::SyntheticModelSpec spec;
    spec.context_length = 512; // one token per character of the rendered prompt
    spec.chat_template = "{{- '<|start|>system<|message|>' }}{# harmony: <|channel|>analysis #}";
    const std::string path = octo::test::temp_path("harmony.gguf");
    {
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                    static_cast<std::streamsize>(bytes.size()));
    }
    for (const char* level : {"high", "low"}) {
        auto run = run_cli({"generate", "--model", path, "--prompt", "Hi", "--chat", "--reasoning-effort", level,
                            "--max-tokens", "1", "--json"});
        ASSERT_EQ(run.exit_status, 0) << run.err;
        const std::string text = run.json()["prompt_text"].get<std::string>();
        EXPECT_NE(text.find(std::string("Reasoning: ") + level + "\n"), std::string::npos) << text;
    }
    auto plain = run_cli({"generate", "--model", path, "--prompt", "Hi", "--chat", "--max-tokens", "1", "--json"});
    ASSERT_EQ(plain.exit_status, 0) << plain.err;
    EXPECT_NE(plain.json()["prompt_text"].get<std::string>().find("Reasoning: medium"), std::string::npos);
    auto bad = run_cli({"generate", "--model", path, "--prompt", "Hi", "--chat", "--reasoning-effort", "maximal"});
    EXPECT_EQ(bad.exit_status, 2);
    std::remove(path.c_str());
}

} // namespace
