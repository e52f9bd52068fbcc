#include "tests/cli/cli_runner.h"

#include "tests/support/test_temp.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

extern char** environ;

namespace octo::test {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

nlohmann::json CliRun::json() const { return nlohmann::json::parse(out); }

std::string temp_path(const std::string& name) {
    static std::atomic<int> counter{0};
    return test::TempPaths::add((std::filesystem::temp_directory_path() /
                                 ("octoscope_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + name))
                                    .string());
}

CliRun run_cli(const std::vector<std::string>& args) {
    const std::string out_path = temp_path("stdout");
    const std::string err_path = temp_path("stderr");
    std::vector<std::string> argv_storage = {OCTOSCOPE_CLI_PATH};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_storage) argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CliRun run;
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) {
        int status = 0;
        if (waitpid(pid, &status, 0) == pid && WIFEXITED(status)) run.exit_status = WEXITSTATUS(status);
    }
    posix_spawn_file_actions_destroy(&actions);
    run.out = slurp(out_path);
    run.err = slurp(err_path);
    std::filesystem::remove(out_path);
    std::filesystem::remove(err_path);
    return run;
}

void write_probe_files(const std::string& dir) {
    const char* ids[] = {"rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"};
    std::ofstream train(dir + "/train.jsonl"), dev(dir + "/dev.jsonl");
    for (int s = 0; s < 8; ++s) {
        for (int i = 0; i < 3; ++i) {
            train << "{\"text\": \"probe " << s << " number " << i << "\", \"lang\": \"en\", \"label\": \"" << ids[s] << "\"}\n";
        }
        dev << "{\"text\": \"dev probe " << s << "\", \"lang\": \"en\", \"label\": \"" << ids[s] << "\"}\n";
    }
}

} // namespace octo::test
