// What the serve tests share: `octoscope-cli serve` started on a free port, an HTTP client for
// its endpoints, a raw socket for what a well-behaved client never does (slow headers, a body
// never sent, a connection left open), and a random-weight model that keeps talking.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

namespace octo::test {

// `octoscope-cli serve ARGS` (on --port 0 unless ARGS name one), running until destroyed (SIGINT,
// then waited for).
class ServerProcess {
public:
    explicit ServerProcess(std::vector<std::string> args, std::vector<std::string> env = {});
    ~ServerProcess();
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    int port() const { return port_; }
    // Sends `sig` and returns at once.
    void signal(int sig) const;
    // SIGINT, then the exit status (-1 when it died otherwise or did not stop within 30 s).
    int stop();
    // The exit status once it exits by itself within `limit` (-1 otherwise; then it is killed).
    int wait_exit(std::chrono::seconds limit);
    std::string err() const;

private:
    pid_t pid_ = -1;
    int port_ = 0;
    int exit_status_ = -1;
    std::string err_path_;
};

struct Answer {
    int status = 0; // 0: no answer (the connection failed or closed)
    nlohmann::json body;
    std::string raw;
    httplib::Headers headers;

    // A response header's value ("" when absent).
    std::string header(const std::string& name) const {
        const auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

Answer post_raw(int port, const std::string& path, const std::string& body, const httplib::Headers& headers = {},
                const std::string& content_type = "application/json");
Answer post(int port, const std::string& path, const nlohmann::json& body, const httplib::Headers& headers = {});
Answer get(int port, const std::string& path, const httplib::Headers& headers = {});

// The server-sent events of a streamed request: each "data:" payload ("[DONE]" kept as a string).
// `stop_after`: the client closes the connection after that many events (0: reads to the end).
std::vector<nlohmann::json> stream(int port, const std::string& path, const nlohmann::json& body, size_t stop_after = 0,
                                   const httplib::Headers& headers = {});

// A one-message chat request, greedy, 24 tokens at most.
nlohmann::json chat(const std::string& text, nlohmann::json extra = nlohmann::json::object());

// The health endpoint's count `key` reaching `value` within 30 s.
bool wait_for(int port, const char* key, int value);

// GET /metrics until its text holds every one of `lines` (the server counts a request once its
// last byte is sent, so a scrape sent the moment an answer arrives may not see it yet), for 10 s at
// most: the last scrape.
Answer metrics_holding(int port, const std::vector<std::string>& lines, const httplib::Headers& headers = {});

// A random-weight model written to a temporary file that keeps talking (its greedy path from
// "abc" never reaches end-of-generation) for 4096 positions.
std::string write_talker();

// A TCP connection to the server on loopback, driven byte by byte.
class RawConnection {
public:
    explicit RawConnection(int port);
    ~RawConnection();
    RawConnection(const RawConnection&) = delete;
    RawConnection& operator=(const RawConnection&) = delete;

    bool connected() const { return fd_ >= 0; }
    bool send(const std::string& bytes);
    // What the server sent, up to `limit` of waiting for it to arrive (empty when nothing did).
    std::string receive(std::chrono::milliseconds limit);
    // Whether the server has closed the connection (reading gives end of file or a reset) without
    // waiting; anything it sent first is appended to `received`.
    bool closed_by_server();
    const std::string& received() const { return received_; }
    void close();

private:
    int fd_ = -1;
    std::string received_;
};

} // namespace octo::test
