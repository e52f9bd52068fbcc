// The connection side of `octoscope-cli serve`: cpp-httplib parses HTTP and routes, this class
// decides who gets a connection and for how long, so that slow or idle clients cannot take the
// server from everyone else.
//
//   a connection      its own thread from accept to close (no fixed pool: a slow client holds
//                     no place another client waits for); more than max_connections open at once:
//                     the newest is answered 503 {"error": … "too_many_connections"} and closed
//   a request's head  from its first byte (from accept for the first request) to its last header
//                     line within header_timeout, however the bytes trickle in; past it: closed
//   its body          within body_timeout of the headers
//   between requests  keep-alive for idle_timeout, then closed; never once the server stops
//   the port          bound exclusively (no SO_REUSEPORT): a second server on it fails to start
//
// Handlers run on the connection's thread and reach its state through the static functions
// (headers_read: the routing hook starts the body deadline; client_connected: whether to go on
// with work nobody will read).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <httplib.h>

#include "engine/serve/connection_limits.h"

namespace octo::serve {

// What the access log needs of one request, kept by its connection (HttpListener::current_request).
struct RequestRecord {
    std::string id;                                 // X-Request-Id: the client's, or generated
    std::chrono::steady_clock::time_point started;  // the request's first byte
    int64_t prompt_tokens = -1;                     // -1: not a generation
    int64_t completion_tokens = -1;
};

// `prefix` and `hex_digits` random hexadecimal digits: request ids ("req-…"), answer ids ("cmpl-…").
std::string random_id(std::string_view prefix, int hex_digits);

class HttpListener : public httplib::Server {
public:
    explicit HttpListener(ConnectionLimits limits);
    ~HttpListener() override;

    const ConnectionLimits& limits() const { return limits_; }
    // After binding: how many connections the kernel may hold for accept.
    void set_backlog(int backlog);
    int open_connections() const { return open_.load(); }
    int64_t refused_connections() const { return refused_.load(); }
    int64_t timed_out_connections() const { return timed_out_.load(); }

    // On a handler's thread (false/null elsewhere):
    // the headers are in: the body's deadline starts now.
    static void headers_read();
    // The response is the last on this connection (an answer given before its body was read).
    static void close_after_response();
    // Whether the client is still connected (it has not closed its side).
    static bool client_connected();
    // The request being handled on this thread.
    static RequestRecord* current_request();

private:
    bool process_and_close_socket(socket_t sock) override;

    ConnectionLimits limits_;
    std::atomic<int> open_{0};
    std::atomic<int64_t> refused_{0};
    std::atomic<int64_t> timed_out_{0};
};

} // namespace octo::serve
