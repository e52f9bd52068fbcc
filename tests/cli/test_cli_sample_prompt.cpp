// The sample prompts the installer scripts run on the built-in model (installer/setup.sh --run on
// a machine without a display, installer/test_packages.sh) are arithmetic octet answers exactly:
// each `--prompt "…"` is read literally out of the script, its right answer is computed here from
// the numbers in it — "What is P% of N?" (P a multiple of 5, N at most 500, the range octet was
// trained on) or "What is A + B?" —, and `octoscope-cli generate` must return exactly that number
// as `text`.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

const std::filesystem::path kRoot = OCTOSCOPE_SOURCE_DIR;

// Every literal `--prompt "…"` in a script, in order.
std::vector<std::string> prompts_in(const std::filesystem::path& script) {
    std::ifstream in(script);
    std::stringstream text;
    text << in.rdbuf();
    const std::string s = text.str();
    static const std::regex prompt(R"re(--prompt "([^"]*)")re");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(s.begin(), s.end(), prompt); it != std::sregex_iterator(); ++it) out.push_back((*it)[1]);
    return out;
}

// The exact answer to "What is P% of N?" or "What is A + B?", or nullopt for any other prompt (or
// a percentage outside octet's training range, or one that is not a whole number).
std::optional<long> right_answer(const std::string& prompt) {
    std::smatch m;
    static const std::regex percent(R"(What is (\d+)% of (\d+)\?)");
    static const std::regex sum(R"(What is (\d+) \+ (\d+)\?)");
    if (std::regex_match(prompt, m, percent)) {
        const long p = std::stol(m[1]), n = std::stol(m[2]);
        if (p % 5 != 0 || n > 500 || (p * n) % 100 != 0) return std::nullopt;
        return p * n / 100;
    }
    if (std::regex_match(prompt, m, sum)) return std::stol(m[1]) + std::stol(m[2]);
    return std::nullopt;
}

TEST(SamplePrompt, TheAnswerIsComputedFromThePrompt) {
    EXPECT_EQ(right_answer("What is 45% of 300?"), 135);
    EXPECT_EQ(right_answer("What is 12 + 30?"), 42);
    EXPECT_EQ(right_answer("What is 48% of 650?"), std::nullopt) << "48 is no multiple of 5, 650 is over 500";
    EXPECT_EQ(right_answer("What is 5% of 30?"), std::nullopt) << "1.5 is no whole number";
    EXPECT_EQ(right_answer("Tell me a story"), std::nullopt);
}

void expect_octet_answers(const std::filesystem::path& script) {
    const auto prompts = prompts_in(script);
    ASSERT_FALSE(prompts.empty()) << "no --prompt \"…\" in " << script;
    for (const std::string& prompt : prompts) {
        const auto answer = right_answer(prompt);
        ASSERT_TRUE(answer) << script.filename() << ": \"" << prompt
                            << "\" is not \"What is P% of N?\" (P a multiple of 5, N <= 500) or \"What is A + B?\"";
        auto run = run_cli({"generate", "--prompt", prompt, "--json"}); // the built-in model, its defaults
        ASSERT_EQ(run.exit_status, 0) << run.err;
        const auto j = run.json();
        EXPECT_EQ(j["text"], std::to_string(*answer)) << script.filename() << ": " << prompt;
        EXPECT_EQ(j["stop_reason"], "end_of_generation") << prompt;
    }
}

TEST(SamplePrompt, SetupRunPromptIsAnsweredExactly) { expect_octet_answers(kRoot / "installer" / "setup.sh"); }

TEST(SamplePrompt, PackageTestPromptsAreAnsweredExactly) { expect_octet_answers(kRoot / "installer" / "test_packages.sh"); }

} // namespace
