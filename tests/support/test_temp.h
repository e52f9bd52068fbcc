#pragma once
// Paths for files a test writes. ctest runs every test in its own process and several at once, so
// a file named only after its contents would be rewritten by one test while another has it mapped
// (a bus error, not a failure). Every path here carries the running test's suite and name.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace octo::test {

inline std::string test_temp_path(std::string_view name) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string path = ::testing::TempDir() + "octoscope_";
    if (info) path += std::string(info->test_suite_name()) + "." + info->name() + "_";
    path += name;
    return path;
}

} // namespace octo::test
