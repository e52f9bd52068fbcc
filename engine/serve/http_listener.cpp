#include "engine/serve/http_listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace octo::serve {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kStopCheck = 100ms; // how often a waiting connection checks that the server still runs

// Waits up to `timeout` for `events` on `sock`; the poll result (>0 ready, 0 timeout, <0 error).
int wait_socket(socket_t sock, short events, Clock::duration timeout) {
    pollfd p{sock, events, 0};
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(std::max(timeout, Clock::duration::zero()));
    int r = 0;
    do {
        r = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(ms.count(), 1 << 30)));
    } while (r < 0 && errno == EINTR);
    return r;
}

std::pair<std::string, int> address_of(const sockaddr_storage& a) {
    char text[INET6_ADDRSTRLEN] = {};
    if (a.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(a);
        inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        return {text, ntohs(v4.sin_port)};
    }
    if (a.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(a);
        inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
        return {text, ntohs(v6.sin6_port)};
    }
    return {"", 0};
}

// One client connection as httplib reads and writes it: buffered reads that fail once the
// request's deadline has passed (however slowly the bytes come), writes bounded by the write timeout.
class ConnectionStream final : public httplib::Stream {
public:
    ConnectionStream(socket_t sock, Clock::duration read_timeout, Clock::duration write_timeout)
        : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

    void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
    void clear_deadline() { deadline_ = Clock::time_point::max(); }
    bool timed_out() const { return timed_out_; }
    bool buffered() const { return begin_ < end_; }

    bool is_readable() const override { return buffered() || wait_socket(sock_, POLLIN, read_wait()) > 0; }
    bool is_writable() const override { return wait_socket(sock_, POLLOUT, write_timeout_) > 0 && peer_open(); }

    ssize_t read(char* ptr, size_t size) override {
        if (!buffered()) {
            const Clock::duration wait = read_wait();
            if (wait <= Clock::duration::zero() || wait_socket(sock_, POLLIN, wait) <= 0) {
                // The deadline, not the pause between two reads, ended the wait.
                timed_out_ = deadline_ != Clock::time_point::max() && wait < read_timeout_;
                return -1;
            }
            ssize_t n = 0;
            do {
                n = ::recv(sock_, buffer_.data(), buffer_.size(), 0);
            } while (n < 0 && errno == EINTR);
            if (n <= 0) return n;
            begin_ = 0;
            end_ = static_cast<size_t>(n);
        }
        const size_t n = std::min(size, end_ - begin_);
        std::memcpy(ptr, buffer_.data() + begin_, n);
        begin_ += n;
        return static_cast<ssize_t>(n);
    }

    ssize_t write(const char* ptr, size_t size) override {
        if (wait_socket(sock_, POLLOUT, write_timeout_) <= 0) return -1;
        ssize_t n = 0;
        do {
            n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
        } while (n < 0 && errno == EINTR);
        return n;
    }

    void get_remote_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (getpeername(sock_, reinterpret_cast<sockaddr*>(&a), &len) == 0) std::tie(ip, port) = address_of(a);
    }
    void get_local_ip_and_port(std::string& ip, int& port) const override {
        sockaddr_storage a{};
        socklen_t len = sizeof a;
        if (getsockname(sock_, reinterpret_cast<sockaddr*>(&a), &len) == 0) std::tie(ip, port) = address_of(a);
    }
    socket_t socket() const override { return sock_; }

    // False once the client has closed its side (a read would return end of file) or the
    // connection broke; bytes it sent ahead (a next request) leave it open.
    bool peer_open() const {
        pollfd p{sock_, POLLIN | POLLRDHUP, 0};
        if (::poll(&p, 1, 0) <= 0) return true;
        if (p.revents & (POLLERR | POLLHUP | POLLNVAL)) return false;
        char byte = 0;
        const ssize_t n = ::recv(sock_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
        return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
    }

    // Waits for a request's first byte: true when one is there, false on end of file, after
    // `timeout`, or once `stopped` says so.
    bool wait_for_request(Clock::duration timeout, const std::function<bool()>& stopped) {
        if (buffered()) return true;
        const Clock::time_point end = Clock::now() + timeout;
        while (!stopped()) {
            const Clock::duration left = end - Clock::now();
            if (left <= Clock::duration::zero()) return false;
            const int r = wait_socket(sock_, POLLIN, std::min<Clock::duration>(left, kStopCheck));
            if (r < 0) return false;
            if (r > 0) return peer_open();
        }
        return false;
    }

private:
    Clock::duration read_wait() const {
        return deadline_ == Clock::time_point::max() ? read_timeout_ : std::min(read_timeout_, deadline_ - Clock::now());
    }

    socket_t sock_;
    Clock::duration read_timeout_;
    Clock::duration write_timeout_;
    Clock::time_point deadline_ = Clock::time_point::max();
    bool timed_out_ = false;
    std::array<char, 4096> buffer_{};
    size_t begin_ = 0;
    size_t end_ = 0;
};

// A connection's state for the handlers running on its thread.
struct Connection {
    ConnectionStream* stream = nullptr;
    const ConnectionLimits* limits = nullptr;
    bool close_after_response = false;
    RequestRecord request;
};
thread_local Connection* t_connection = nullptr;

// A thread for each connection, up to `cap` at once (a thread that finishes takes the next
// waiting connection; threads stay for the next ones until shutdown).
class ConnectionThreads final : public httplib::TaskQueue {
public:
    explicit ConnectionThreads(size_t cap) : cap_(cap) {}
    ~ConnectionThreads() override { shutdown(); }

    void enqueue(std::function<void()> fn) override {
        std::unique_lock lock(mutex_);
        jobs_.push_back(std::move(fn));
        // A thread woken but not yet running still counts as idle, and its job as queued.
        if (jobs_.size() > idle_ && threads_.size() < cap_) threads_.emplace_back([this] { work(); });
        ready_.notify_one();
    }

    void shutdown() override {
        {
            std::unique_lock lock(mutex_);
            if (stopping_) return;
            stopping_ = true;
        }
        ready_.notify_all();
        for (std::thread& t : threads_) t.join();
    }

private:
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            idle_ += 1;
            ready_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            idle_ -= 1;
            if (jobs_.empty()) return; // stopping, nothing left
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            lock.unlock();
            job();
            lock.lock();
        }
    }

    size_t cap_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<std::function<void()>> jobs_;
    std::vector<std::thread> threads_;
    size_t idle_ = 0;
    bool stopping_ = false;
};

// The answer for a connection over the limit, written before it is closed.
constexpr std::string_view kTooMany =
    "HTTP/1.1 503 Service Unavailable\r\n"
    "Content-Type: application/json\r\n"
    "Retry-After: 1\r\n"
    "Connection: close\r\n"
    "Content-Length: 134\r\n"
    "\r\n"
    R"j({"error":{"message":"too many open connections (--max-connections)","type":"server_error","param":null,"code":"too_many_connections"}})j";
static_assert(kTooMany.size() - kTooMany.find("\r\n\r\n") - 4 == 134, "Content-Length matches the body");

// Half-closes, then reads what the client still sends (a body not read because the answer came
// first) for a moment, so that closing does not reset the connection before the answer is read.
void lingering_close(socket_t sock) {
    ::shutdown(sock, SHUT_WR);
    const Clock::time_point end = Clock::now() + 500ms;
    std::array<char, 4096> scratch{};
    size_t drained = 0;
    while (drained < (1u << 20) && wait_socket(sock, POLLIN, end - Clock::now()) > 0) {
        const ssize_t n = ::recv(sock, scratch.data(), scratch.size(), 0);
        if (n <= 0) break;
        drained += static_cast<size_t>(n);
    }
}

// The client's X-Request-Id when it is one (1 to 128 visible ASCII characters), else a new one.
std::string request_id(const std::string& given) {
    const bool usable = !given.empty() && given.size() <= 128 &&
                        std::all_of(given.begin(), given.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    return usable ? given : random_id("req-", 16);
}

} // namespace

std::string random_id(std::string_view prefix, int hex_digits) {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string id(prefix);
    for (int i = 0; i < hex_digits; ++i) id.push_back(kDigits[rng() & 15]);
    return id;
}

HttpListener::HttpListener(ConnectionLimits limits) : limits_(limits) {
    // SO_REUSEADDR only: a restart binds while old connections linger in TIME_WAIT, but a second
    // live server on the same port fails to bind (httplib's default SO_REUSEPORT let both listen).
    set_socket_options([](socket_t sock) {
        int yes = 1;
        setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    set_keep_alive_max_count(1000);
    const size_t cap = static_cast<size_t>(std::max(limits_.max_connections, 1)) + 16; // the refused ones leave at once
    new_task_queue = [cap] { return new ConnectionThreads(cap); };
}

HttpListener::~HttpListener() = default;

void HttpListener::set_backlog(int backlog) {
    const socket_t sock = svr_sock_;
    if (sock != INVALID_SOCKET) ::listen(sock, backlog); // on a listening socket: a new backlog
}

void HttpListener::headers_read() {
    if (t_connection) t_connection->stream->set_deadline(Clock::now() + t_connection->limits->body_timeout);
}

void HttpListener::close_after_response() {
    if (t_connection) t_connection->close_after_response = true;
}

bool HttpListener::client_connected() { return t_connection && t_connection->stream->peer_open(); }

RequestRecord* HttpListener::current_request() { return t_connection ? &t_connection->request : nullptr; }

bool HttpListener::process_and_close_socket(socket_t sock) {
    const auto accepted = Clock::now();
    const int open = open_.fetch_add(1) + 1;
    const auto read_timeout = std::chrono::seconds(read_timeout_sec_) + std::chrono::microseconds(read_timeout_usec_);
    const auto write_timeout = std::chrono::seconds(write_timeout_sec_) + std::chrono::microseconds(write_timeout_usec_);
    ConnectionStream stream(sock, read_timeout, write_timeout);
    bool ok = true;
    bool linger = false;
    if (open > limits_.max_connections) {
        refused_.fetch_add(1);
        stream.write(kTooMany.data(), kTooMany.size());
        linger = true;
    } else {
        Connection connection{&stream, &limits_, false, {}};
        t_connection = &connection;
        const auto stopped = [this] { return svr_sock_ == INVALID_SOCKET; };
        // The first request's head is due header_timeout after the accept; later ones idle first.
        bool first = true;
        for (size_t left = keep_alive_max_count_; left > 0; --left) {
            if (!stream.wait_for_request(first ? limits_.header_timeout : limits_.idle_timeout, stopped)) break;
            connection.request = RequestRecord{};
            connection.request.started = first ? accepted : Clock::now();
            stream.set_deadline(connection.request.started + limits_.header_timeout);
            first = false;
            bool closed = false;
            ok = process_request(stream, left == 1 || stopped(), closed,
                                 [&](httplib::Request& req) { connection.request.id = request_id(req.get_header_value("X-Request-Id")); });
            stream.clear_deadline();
            if (stream.timed_out()) timed_out_.fetch_add(1);
            if (!ok || closed || connection.close_after_response || stream.timed_out()) {
                linger = connection.close_after_response;
                break;
            }
        }
        t_connection = nullptr;
    }
    if (linger) lingering_close(sock);
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    open_.fetch_sub(1);
    return ok;
}

} // namespace octo::serve
