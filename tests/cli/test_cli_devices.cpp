// octoscope-cli devices: always answers, and explains a missing CUDA backend.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

TEST(CliDevices, ReportsCpuAndCudaConsistently) {
    auto run = run_cli({"devices", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_FALSE(j["cpu"]["model"].get<std::string>().empty());
    EXPECT_GE(j["cpu"]["threads"].get<int>(), 1);
    const auto& cuda = j["cuda"];
    if (cuda["available"].get<bool>()) {
        EXPECT_FALSE(cuda["devices"].empty());
        EXPECT_TRUE(cuda["reason"].is_null());
    } else {
        EXPECT_TRUE(cuda["devices"].empty());
        EXPECT_FALSE(cuda["reason"].get<std::string>().empty());
    }
}

TEST(CliDevices, MissingModuleIsAReasonNotAFailure) {
    ::setenv("OCTOSCOPE_CUDA_MODULE", "/nonexistent/liboctoscope-cuda.so", 1);
    auto run = run_cli({"devices", "--json"});
    ::unsetenv("OCTOSCOPE_CUDA_MODULE");
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_FALSE(j["cuda"]["available"].get<bool>());
    EXPECT_NE(j["cuda"]["reason"].get<std::string>().find("/nonexistent/liboctoscope-cuda.so"), std::string::npos);
}

TEST(CliDevices, BrokenModuleIsAReasonNotACrash) {
    // A file that is not a shared library: dlopen fails and says why.
    const std::string path = std::string(OCTOSCOPE_TESTS_DIR) + "/data/malformed/wrong_magic.gguf";
    ::setenv("OCTOSCOPE_CUDA_MODULE", path.c_str(), 1);
    auto run = run_cli({"devices", "--json"});
    ::unsetenv("OCTOSCOPE_CUDA_MODULE");
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_FALSE(j["cuda"]["available"].get<bool>());
    EXPECT_NE(j["cuda"]["reason"].get<std::string>().find("cannot load the CUDA module"), std::string::npos)
        << j.dump();
}

} // namespace
