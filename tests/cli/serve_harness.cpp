#include "tests/cli/serve_harness.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fstream>
#include <thread>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

extern char** environ;

namespace octo::test {

using nlohmann::json;

ServerProcess::ServerProcess(std::vector<std::string> args, std::vector<std::string> env) {
    if (std::find(args.begin(), args.end(), "--port") == args.end()) args.insert(args.begin(), {"--port", "0"});
    args.insert(args.begin(), {OCTOSCOPE_CLI_PATH, "serve"});
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_storage;
    for (char** e = environ; *e; ++e) env_storage.emplace_back(*e);
    env_storage.insert(env_storage.end(), env.begin(), env.end());
    std::vector<char*> envp;
    for (auto& e : env_storage) envp.push_back(e.data());
    envp.push_back(nullptr);
    int out[2];
    if (pipe(out) != 0) return;
    err_path_ = temp_path("serve_stderr");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    posix_spawn_file_actions_addopen(&actions, 2, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    // "port N" on stdout once it listens (the model is loaded by then).
    std::string line;
    char ch = 0;
    while (pid_ > 0 && read(out[0], &ch, 1) == 1 && ch != '\n') line.push_back(ch);
    ::close(out[0]);
    if (line.rfind("port ", 0) == 0) port_ = std::stoi(line.substr(5));
}

ServerProcess::~ServerProcess() {
    stop();
    if (!err_path_.empty()) std::remove(err_path_.c_str());
}

void ServerProcess::signal(int sig) const {
    if (pid_ > 0) kill(pid_, sig);
}

int ServerProcess::stop() {
    if (pid_ <= 0) return exit_status_;
    kill(pid_, SIGINT);
    return wait_exit(std::chrono::seconds(30));
}

int ServerProcess::wait_exit(std::chrono::seconds limit) {
    if (pid_ <= 0) return exit_status_;
    int status = 0;
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
        if (waitpid(pid_, &status, WNOHANG) == pid_) {
            exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            pid_ = -1;
            return exit_status_;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    pid_ = -1;
    exit_status_ = -1;
    return exit_status_;
}

std::string ServerProcess::err() const {
    std::ifstream in(err_path_);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

namespace {

Answer answer_of(const httplib::Result& r) {
    Answer a;
    if (!r) return a;
    a.status = r->status;
    a.raw = r->body;
    a.body = json::parse(r->body, nullptr, false);
    a.headers = r->headers;
    return a;
}

} // namespace

Answer post_raw(int port, const std::string& path, const std::string& body, const httplib::Headers& headers,
                const std::string& content_type) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(120, 0);
    return answer_of(client.Post(path.c_str(), headers, body, content_type.c_str()));
}

Answer post(int port, const std::string& path, const json& body, const httplib::Headers& headers) {
    return post_raw(port, path, body.dump(), headers);
}

Answer get(int port, const std::string& path, const httplib::Headers& headers) {
    httplib::Client client("127.0.0.1", port);
    return answer_of(client.Get(path.c_str(), headers));
}

std::vector<json> stream(int port, const std::string& path, const json& body, size_t stop_after, const httplib::Headers& headers) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(120, 0);
    httplib::Request req;
    req.method = "POST";
    req.path = path;
    req.body = body.dump();
    req.headers = headers;
    req.set_header("Content-Type", "application/json");
    std::string buffer;
    std::vector<json> events;
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
        buffer.append(data, n);
        size_t end = 0;
        while ((end = buffer.find("\n\n")) != std::string::npos) {
            const std::string event = buffer.substr(0, end);
            buffer.erase(0, end + 2);
            if (event.rfind("data: ", 0) != 0) continue;
            const std::string payload = event.substr(6);
            events.push_back(payload == "[DONE]" ? json("[DONE]") : json::parse(payload, nullptr, false));
        }
        return stop_after == 0 || events.size() < stop_after;
    };
    httplib::Response res;
    httplib::Error error = httplib::Error::Success;
    client.send(req, res, error);
    return events;
}

json chat(const std::string& text, json extra) {
    json body = {{"messages", json::array({{{"role", "user"}, {"content", text}}})}, {"max_tokens", 24}, {"temperature", 0}};
    body.update(extra);
    return body;
}

bool wait_for(int port, const char* key, int value) {
    for (int i = 0; i < 6000; ++i) {
        if (get(port, "/health").body.value(key, -1) == value) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
}

Answer metrics_holding(int port, const std::vector<std::string>& lines, const httplib::Headers& headers) {
    const auto holds = [&](const std::string& text) {
        for (const std::string& l : lines) {
            if (text.find(l + "\n") == std::string::npos) return false;
        }
        return true;
    };
    Answer last;
    for (int i = 0; i < 1000; ++i) {
        last = get(port, "/metrics", headers);
        if (last.status != 200 || holds(last.raw)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return last;
}

std::string write_talker() {
    SyntheticModelSpec spec;
    spec.context_length = 4096;
    spec.seed = 3;
    const std::string path = temp_path("talker.gguf");
    auto bytes = make_synthetic_model(spec).value();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

RawConnection::RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) return;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) close();
}

RawConnection::~RawConnection() { close(); }

bool RawConnection::send(const std::string& bytes) {
    if (fd_ < 0) return false;
    return ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
}

std::string RawConnection::receive(std::chrono::milliseconds limit) {
    std::string got;
    const auto end = std::chrono::steady_clock::now() + limit;
    while (fd_ >= 0) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
        if (left.count() <= 0) break;
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
        char buffer[4096];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        got.append(buffer, static_cast<size_t>(n));
        // Enough once the head and a Content-Length body are in.
        const size_t head_end = got.find("\r\n\r\n");
        const size_t length_at = got.find("Content-Length: ");
        if (head_end != std::string::npos && length_at != std::string::npos && length_at < head_end &&
            got.size() >= head_end + 4 + std::stoul(got.substr(length_at + 16))) {
            break;
        }
    }
    received_ += got;
    return got;
}

bool RawConnection::closed_by_server() {
    if (fd_ < 0) return true;
    for (;;) {
        char buffer[4096];
        const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n > 0) {
            received_.append(buffer, static_cast<size_t>(n));
            continue;
        }
        if (n == 0) return true;
        return !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR);
    }
}

void RawConnection::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

} // namespace octo::test
