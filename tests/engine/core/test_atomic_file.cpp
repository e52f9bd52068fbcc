// write_file_atomic (engine/core/atomic_file.h): it writes and replaces; a failed write (an
// unwritable folder, a file-size limit hit midway) is an Io error naming the file, leaves the old
// file as it was and no temporary file behind; and a writer killed midway (SIGKILL while it is
// writing a large payload) leaves the old file byte-identical and readable.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/core/atomic_file.h"

namespace fs = std::filesystem;

namespace octo {
namespace {

class AtomicFile : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("octoscope-atomic-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ec;
        fs::permissions(dir_, fs::perms::owner_all, ec);
        fs::remove_all(dir_, ec);
    }
    fs::path dir_;
};

std::vector<std::string> names_in(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    return names;
}

std::string read_all(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Bytes that differ from position to position, so a partial or shifted copy never compares equal.
std::string pattern(size_t n, char seed) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + static_cast<size_t>(seed)) % 251);
    return s;
}

TEST_F(AtomicFile, WritesAndReplaces) {
    const fs::path file = dir_ / "sub" / "deeper" / "a.json"; // parent folders are created
    ASSERT_TRUE(write_file_atomic(file, "first"));
    EXPECT_EQ(read_all(file), "first");
    const std::string second = pattern(100000, 7);
    ASSERT_TRUE(write_file_atomic(file, second));
    EXPECT_EQ(read_all(file), second);
    ASSERT_TRUE(write_file_atomic(file, ""));
    EXPECT_EQ(fs::file_size(file), 0u);
    EXPECT_EQ(names_in(file.parent_path()), std::vector<std::string>{"a.json"}); // no temporary file left
}

TEST_F(AtomicFile, ParentThatIsAFileIsAnIoError) {
    ASSERT_TRUE(write_file_atomic(dir_ / "plain", "x"));
    const auto r = write_file_atomic(dir_ / "plain" / "child.json", "y");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Io);
    EXPECT_NE(r.error().message.find("plain"), std::string::npos) << r.error().message;
    EXPECT_EQ(read_all(dir_ / "plain"), "x");
}

// Root ignores folder permissions, so the write runs in a child process that drops to an
// unprivileged user (nobody, 65534) when the test runs as root.
TEST_F(AtomicFile, UnwritableFolderLeavesTheOldFile) {
    const fs::path file = dir_ / "keep.json";
    ASSERT_TRUE(write_file_atomic(file, "old contents"));
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        const auto r = write_file_atomic(file, "new contents");
        if (r) ::_exit(1);
        const bool clear = r.error().code == ErrorCode::Io && r.error().message.find("keep.json") != std::string::npos;
        ::_exit(clear ? 0 : 2);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    fs::permissions(dir_, fs::perms::owner_all);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the write succeeded; 2: not an Io error naming the file; 3: cannot drop privileges";
    EXPECT_EQ(read_all(file), "old contents");
    EXPECT_EQ(names_in(dir_), std::vector<std::string>{"keep.json"});
}

// A write that fails midway (the process's file-size limit, EFBIG) is reported, and undone.
TEST_F(AtomicFile, WriteFailingMidwayLeavesTheOldFileAndNoTemporary) {
    const fs::path file = dir_ / "keep.bin";
    const std::string old_bytes = pattern(1000, 1);
    ASSERT_TRUE(write_file_atomic(file, old_bytes));
    rlimit saved{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN); // write() returns EFBIG instead
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const auto r = write_file_atomic(file, pattern(1 << 20, 2));
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, ErrorCode::Io);
    EXPECT_NE(r.error().message.find("keep.bin"), std::string::npos) << r.error().message;
    EXPECT_EQ(read_all(file), old_bytes);
    EXPECT_EQ(names_in(dir_), std::vector<std::string>{"keep.bin"});
}

// A child process writes 512 MB over the file; once its temporary file is partly written it is
// killed (SIGKILL: no handler, no cleanup). The file keeps the old bytes; the leftover
// temporary file has another name, and the next write replaces the file normally.
TEST_F(AtomicFile, WriterKilledMidwayLeavesTheOldFileIntact) {
    const fs::path file = dir_ / "session.json";
    const std::string old_bytes = pattern(4096, 3);
    ASSERT_TRUE(write_file_atomic(file, old_bytes));
    constexpr size_t kPayload = size_t{512} << 20;

    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const std::string big = pattern(kPayload, 4);
        const auto r = write_file_atomic(file, big);
        ::_exit(r ? 0 : 1);
    }
    const fs::path tmp = file.string() + ".tmp" + std::to_string(child);
    uintmax_t seen = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
        std::error_code ec;
        seen = fs::file_size(tmp, ec);
        if (!ec && seen > 0) break;
        ::usleep(200);
    }
    ::kill(child, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer finished before it could be interrupted";
    EXPECT_EQ(WTERMSIG(status), SIGKILL);
    ASSERT_GT(seen, 0u) << "the temporary file was never seen being written";

    EXPECT_EQ(read_all(file), old_bytes); // byte-identical, and readable
    std::error_code ec;
    const uintmax_t left = fs::file_size(tmp, ec);
    ASSERT_FALSE(ec) << "the killed writer's partial temporary file should still be there";
    EXPECT_LT(left, kPayload);

    ASSERT_TRUE(write_file_atomic(file, "after")); // the leftover does not get in the way
    EXPECT_EQ(read_all(file), "after");
}

} // namespace
} // namespace octo
