// octoscope-cli advise on the shipped advisor rules (docs/cli.md, docs/advisor.md).
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

TEST(CliAdvise, PromptFindingsWithByteSpans) {
    const std::string prompt = "苹果公司最近的营收是多少？";
    auto run = run_cli({"advise", "--prompt", prompt, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    ASSERT_EQ(j["findings"].size(), 1u);
    const auto& f = j["findings"][0];
    EXPECT_EQ(f["rule"], "rte-a.vague_time");
    EXPECT_EQ(f["subsystem"], "rte-a");
    EXPECT_EQ(f["severity"], "warning");
    EXPECT_EQ(f["source"], "article");
    EXPECT_EQ(f["span"]["in"], "prompt");
    const size_t start = f["span"]["start"], end = f["span"]["end"];
    EXPECT_EQ(prompt.substr(start, end - start), "最近");
    EXPECT_EQ(f["evidence"], "最近");
    EXPECT_NE(f["suggestion"].get<std::string>().find("time range"), std::string::npos);
}

TEST(CliAdvise, NoGenericTips) {
    auto run = run_cli({"advise", "--prompt", "What is the capital of France?", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.out, "{\"findings\":[]}\n");
    auto text = run_cli({"advise", "--prompt", "What is the capital of France?"});
    EXPECT_EQ(text.out, "no findings\n");
}

TEST(CliAdvise, OutputFileChecks) {
    const std::string path = octo::test::temp_path("advise-output.txt");
    std::ofstream(path, std::ios::binary) << "增长率 = (3832.9−3731.5)/3731.5 ≈ 2.8%";
    auto run = run_cli({"advise", "--prompt", "计算苹果2023年营收同比增长率", "--output-file", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    ASSERT_EQ(j["findings"].size(), 1u);
    const auto& f = j["findings"][0];
    EXPECT_EQ(f["rule"], "rte-c.arithmetic_claim");
    EXPECT_EQ(f["span"]["in"], "output");
    EXPECT_EQ(f["source"], "project");
    EXPECT_EQ(f["evidence"], "(3832.9−3731.5)/3731.5 ≈ 2.8%");
    EXPECT_EQ(f["span"]["start"], std::string("增长率 = ").size());
    auto text = run_cli({"advise", "--prompt", "x", "--output-file", path});
    EXPECT_NE(text.out.find("to the stated digits it is 2.7%"), std::string::npos) << text.out;
}

TEST(CliAdvise, BadRuleFileAndMissingOutput) {
    const std::string rules = octo::test::temp_path("advisor-bad.json");
    std::ofstream(rules, std::ios::binary) << R"({"version": 1, "rules": [{"id": "x", "subsystem": "rte-q"}]})";
    auto bad = run_cli({"advise", "--prompt", "hi", "--rules", rules, "--json"});
    EXPECT_EQ(bad.exit_status, 1);
    EXPECT_NE(bad.err.find("rule x: \"subsystem\": unknown subsystem \"rte-q\""), std::string::npos) << bad.err;
    auto missing = run_cli({"advise", "--prompt", "hi", "--output-file", "/nonexistent.txt", "--json"});
    EXPECT_EQ(missing.exit_status, 1);
    auto usage = run_cli({"advise", "--json"});
    EXPECT_EQ(usage.exit_status, 2);
}

} // namespace
