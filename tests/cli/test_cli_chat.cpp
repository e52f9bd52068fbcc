// octoscope-cli chat --conversation FILE.json (docs/coherence.md): the JSON contract on a chat
// model (every message with its lens, every step with its KV reuse, the coherence findings), the
// built-in model that is no chat model, and the file errors.
// Covers: app/cli/cmd_coherence.cpp
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "tests/cli/cli_runner.h"
#include "tests/support/shared_data.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

std::string write_file(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

const char* kSwap = R"({"model": "ignored", "messages": [
  {"role": "system", "content": "You are terse."},
  {"role": "user", "content": "Alice is the manager and Bob is the engineer."},
  {"role": "assistant", "content": "Noted: Alice is the manager."},
  {"role": "user", "content": [{"type": "text", "text": "Who approves "}, {"type": "text", "text": "budgets?"}]},
  {"role": "assistant", "content": "Bob, the manager, approves budgets."},
  {"role": "user", "content": "And then?"}
]})";

TEST(CliChat, EveryTurnHasItsLensEveryStepItsReuse) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string file = write_file("chat-swap.json", kSwap);
    const auto r = run_cli({"chat", "--conversation", file, "-m", (*refdata / "qwen2-tiny-f32.gguf").string(), "-n", "4", "--threads", "1", "--json"});
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["rendering"], "chatml") << "qwen2-tiny has no chat template of its own: ChatML, as other servers do";
    EXPECT_TRUE(j["whole_conversation"].get<bool>());
    ASSERT_EQ(j["messages"].size(), 7u) << "the missing last assistant turn is generated";
    EXPECT_EQ(j["messages"][3]["content"], "Who approves budgets?") << "text parts are joined";
    ASSERT_EQ(j["turns"].size(), 7u);
    for (const auto& t : j["turns"]) {
        EXPECT_TRUE(t["located"].get<bool>()) << t["message"];
        EXPECT_GT(t["lens"]["measured_tokens"].get<int>(), 0) << t["message"];
        EXPECT_TRUE(t["lens"]["top"].is_string()) << t["message"];
        EXPECT_EQ(t["lens"]["mean"].size(), 8u);
    }
    EXPECT_TRUE(j["turns"][6]["generated"].get<bool>());
    EXPECT_EQ(j["turns"][6]["role"], "assistant");
    const auto& steps = j["steps"];
    ASSERT_EQ(steps.size(), 3u) << "two given assistant turns evaluated, one generated";
    EXPECT_EQ(steps[0]["message"], 2);
    EXPECT_EQ(steps[0]["reused_tokens"], 0);
    for (size_t k = 1; k < 3; ++k) {
        const int64_t reused = steps[k]["reused_tokens"].get<int64_t>();
        const int64_t block = steps[k]["kv"]["block_size"].get<int64_t>();
        EXPECT_EQ(reused % block, 0);
        EXPECT_GE(reused + block, steps[k - 1]["prompt_tokens"].get<int64_t>() - 8) << "the conversation so far is reused";
    }
    EXPECT_TRUE(steps[2]["generated"].get<bool>());
    // The swap at message 5 (index 4) is flagged, pointing at the two statements.
    const auto& findings = j["coherence"]["findings"];
    ASSERT_EQ(findings.size(), 1u) << j["coherence"].dump(2);
    EXPECT_EQ(findings[0]["kind"], "entity_reference");
    EXPECT_EQ(findings[0]["earlier"]["text"], "Alice is the manager");
    EXPECT_EQ(findings[0]["later"]["message"], 4);
    EXPECT_EQ(findings[0]["later"]["text"], "Bob, the manager");
    EXPECT_NE(findings[0]["suggestion"]["en"].get<std::string>().find("Restate the fact in the system message"), std::string::npos);
    EXPECT_FALSE(findings[0]["suggestion"]["zh"].get<std::string>().empty());
}

// The capture of a conversation holds all of it; replay repeats the reply token for token.
TEST(CliChat, ACaptureHoldsTheWholeConversationAndReplays) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string file = write_file("chat-capture.json", kSwap);
    const std::string capture = temp_path("chat.octo");
    const auto r = run_cli({"chat", "--conversation", file, "-m", (*refdata / "qwen2-tiny-f32.gguf").string(), "-n", "6", "--threads", "1",
                            "--save-capture", capture, "--json"});
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto info = run_cli({"capture-info", capture, "--json"});
    const auto replay = run_cli({"replay", capture, "--json"});
    std::filesystem::remove(capture);
    ASSERT_EQ(info.exit_status, 0) << info.err;
    EXPECT_NE(info.out.find("Bob, the manager, approves budgets."), std::string::npos) << "every message is in the capture";
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    EXPECT_TRUE(replay.json()["identical"].get<bool>()) << replay.out;
    EXPECT_EQ(replay.json()["replayed_text"], r.json()["messages"][6]["content"]);
}

TEST(CliChat, TheBuiltInModelSeesOnlyTheLastUserMessage) {
    const std::string file = write_file("chat-octet.json", kSwap);
    const auto r = run_cli({"chat", "--conversation", file, "-n", "4", "--json"});
    const auto text = run_cli({"chat", "--conversation", file, "-n", "4"});
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    EXPECT_FALSE(j["whole_conversation"].get<bool>());
    EXPECT_EQ(j["rendering"], "prompt template (last user message)");
    EXPECT_FALSE(j["turns"][1]["located"].get<bool>()) << "an earlier turn never reached the model";
    EXPECT_EQ(j["coherence"]["findings"].size(), 1u) << "the text measures need no model";
    ASSERT_EQ(text.exit_status, 0) << text.err;
    EXPECT_NE(text.err.find("no chat template"), std::string::npos) << text.err;
    EXPECT_NE(text.out.find("entity_reference: the manager was Alice"), std::string::npos) << text.out;
}

TEST(CliChat, BadFilesGetClearErrors) {
    const auto missing = run_cli({"chat", "--conversation", temp_path("no-such-chat.json"), "--json"});
    EXPECT_EQ(missing.exit_status, 1);
    EXPECT_NE(missing.json()["error"].get<std::string>().find("conversation file"), std::string::npos) << missing.out;
    for (const auto& [body, says] : std::vector<std::pair<std::string, std::string>>{
             {"{not json", "is not JSON"},
             {R"({"prompt": "x"})", "no \"messages\""},
             {R"([{"role": "wizard", "content": "x"}])", "messages[0].role"},
             {R"([{"role": "user"}])", "messages[0].content"},
             {"[]", "no messages"},
             {R"([{"role": "user", "content": "u"}, {"role": "system", "content": "late"}])", "system message"}}) {
        const std::string file = write_file("chat-bad.json", body);
        const auto r = run_cli({"chat", "--conversation", file, "--json"});
        std::filesystem::remove(file);
        EXPECT_EQ(r.exit_status, 1) << body;
        EXPECT_NE(r.json()["error"].get<std::string>().find(says), std::string::npos) << body << " → " << r.out;
    }
    EXPECT_EQ(run_cli({"chat"}).exit_status, 2) << "--conversation is required";
}

TEST(CliCoherence, TextAloneAndTheLabelledSets) {
    const std::string file = write_file("coherence-swap.json", kSwap);
    const auto r = run_cli({"coherence", "--conversation", file, "--json"});
    std::filesystem::remove(file);
    ASSERT_EQ(r.exit_status, 0) << r.err;
    ASSERT_EQ(r.json()["findings"].size(), 1u);
    EXPECT_EQ(r.json()["findings"][0]["later"]["text"], "Bob, the manager");
    const std::string heldout = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/coherence/heldout.json";
    const auto set = run_cli({"coherence", "--set", heldout, "--calibrate", std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/coherence/calibration.json", "--json"});
    ASSERT_EQ(set.exit_status, 0) << set.err;
    const auto j = set.json();
    // Every label of the file is either found or missed.
    std::ifstream in(heldout);
    const auto labelled = nlohmann::json::parse(in);
    size_t labels = 0;
    for (const auto& c : labelled["conversations"]) labels += c["breaks"].size();
    EXPECT_EQ(j["conversations"], labelled["conversations"].size());
    EXPECT_EQ(j["all"]["true_positives"].get<size_t>() + j["all"]["false_negatives"].get<size_t>(), labels);
    EXPECT_EQ(j["all"]["false_negatives"].get<size_t>(), j["missed"].size());
    EXPECT_EQ(j["thresholds"]["sentiment_jump"], 1.25);
    EXPECT_EQ(run_cli({"coherence"}).exit_status, 2) << "--conversation or --set";
}

} // namespace
