// octoscope-cli eval: counts per subsystem, the JSON shape, and clear errors for bad task files
// (the built-in model's accuracy is checked in test_octet_model.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

std::string write_text(const std::string& name, const std::string& text) {
    const std::string path = temp_path(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::string write_model() {
    const std::string path = temp_path("eval.gguf");
    auto bytes = octo::make_synthetic_model({}).value();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
}

TEST(CliEval, CountsItemsPerSubsystem) {
    const std::string model = write_model();
    const std::string data = write_text("tasks.jsonl",
                                        R"({"prompt": "1+1=", "answer": "2", "subsystem": "rte-c", "lang": "en", "heldout_phrasing": false})"
                                        "\n"
                                        R"({"prompt": "Hi", "answer": "Hello", "subsystem": "rte-f", "lang": "en", "heldout_phrasing": true})"
                                        "\n"
                                        R"({"prompt": "2+2=", "answer": "4", "subsystem": "rte-c", "lang": "en", "heldout_phrasing": false})"
                                        "\n");
    auto run = run_cli({"eval", "--model", model, "--data", data, "--max-tokens", "4", "--disable", "rte-b", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["n"], 3);
    EXPECT_EQ(j["n_per_subsystem"]["rte-c"], 2);
    EXPECT_EQ(j["n_per_subsystem"]["rte-f"], 1);
    EXPECT_FALSE(j["per_subsystem"].contains("rte-a")); // no items
    EXPECT_GE(j["overall"].get<double>(), 0.0);
    EXPECT_LE(j["overall"].get<double>(), 1.0);
    EXPECT_EQ(j["disabled"], nlohmann::json({"rte-b"}));
    EXPECT_FALSE(j.contains("router")); // a plain llama model has no router
    auto limited = run_cli({"eval", "--model", model, "--data", data, "--max-tokens", "2", "--limit", "1", "--json"});
    EXPECT_EQ(limited.json()["n"], 1);
    std::remove(data.c_str());
    std::remove(model.c_str());
}

TEST(CliEval, ClearErrorsForBadTaskFiles) {
    const std::string model = write_model();
    const std::string bad_json = write_text("bad.jsonl", "{\"prompt\": \"x\", \"answer\": \"y\", \"subsystem\": \"rte-a\"}\n{oops\n");
    auto a = run_cli({"eval", "--model", model, "--data", bad_json, "--json"});
    EXPECT_EQ(a.exit_status, 1);
    EXPECT_NE(a.json()["error"].get<std::string>().find(":2: not a JSON object"), std::string::npos) << a.out;
    const std::string bad_id = write_text("badid.jsonl", "{\"prompt\": \"x\", \"answer\": \"y\", \"subsystem\": \"rte-q\"}\n");
    auto b = run_cli({"eval", "--model", model, "--data", bad_id, "--json"});
    EXPECT_EQ(b.exit_status, 1);
    EXPECT_NE(b.json()["error"].get<std::string>().find("unknown subsystem \"rte-q\""), std::string::npos) << b.out;
    const std::string missing = write_text("missing.jsonl", "{\"prompt\": \"x\", \"subsystem\": \"rte-a\"}\n");
    auto c = run_cli({"eval", "--model", model, "--data", missing, "--json"});
    EXPECT_NE(c.json()["error"].get<std::string>().find("missing string \"answer\""), std::string::npos) << c.out;
    auto d = run_cli({"eval", "--model", model, "--data", temp_path("no-such.jsonl"), "--json"});
    EXPECT_EQ(d.exit_status, 1);
    auto e = run_cli({"eval", "--model", model, "--data", bad_id, "--disable", "rte-9", "--json"});
    EXPECT_EQ(e.exit_status, 2);
    for (const auto& p : {bad_json, bad_id, missing, model}) std::remove(p.c_str());
}

} // namespace
