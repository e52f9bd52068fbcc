// How long a client may take and how many may be connected (HttpListener, http_listener.h; the
// serve command's --header-timeout, --body-timeout, --idle-timeout and --max-connections).
#pragma once

#include <chrono>

namespace octo::serve {

struct ConnectionLimits {
    std::chrono::milliseconds header_timeout{10'000}; // a request's first byte to its last header line
    std::chrono::milliseconds body_timeout{60'000};   // the headers to the body's last byte
    std::chrono::milliseconds idle_timeout{5'000};    // keep-alive: waiting for the next request
    int max_connections = 512;                        // open at once; one more is answered 503 and closed
};

} // namespace octo::serve
