#pragma once
// Paths for files a test writes. ctest runs every test in its own process and several at once, so
// a file named only after its contents would be rewritten by one test while another has it mapped
// (a bus error, not a failure). Every path here carries the running test's suite and name, and is
// removed when the test process exits.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

namespace octo::test {

// The paths handed out in this process, removed (files and folders alike) when it exits: a test
// that writes one leaves nothing behind, even when it fails or forgets.
class TempPaths {
public:
    static std::string add(std::string path) {
        TempPaths& self = instance();
        std::lock_guard lock(self.m_);
        self.paths_.push_back(path);
        return path;
    }
    ~TempPaths() {
        for (const std::string& path : paths_) {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    }

private:
    static TempPaths& instance() {
        static TempPaths paths;
        return paths;
    }
    std::mutex m_;
    std::vector<std::string> paths_;
};

inline std::string test_temp_path(std::string_view name) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string path = ::testing::TempDir() + "octoscope_";
    if (info) path += std::string(info->test_suite_name()) + "." + info->name() + "_";
    path += name;
    return TempPaths::add(std::move(path));
}

// `bytes` written to test_temp_path(name); returns the path.
inline std::string write_temp_file(std::string_view name, const std::vector<uint8_t>& bytes) {
    const std::string path = test_temp_path(name);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

} // namespace octo::test
