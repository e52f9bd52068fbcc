// Server-sent events (the text/event-stream of a streamed completion) read as the bytes arrive:
// each complete event's data comes out once its blank line has been read. Lines may end in LF,
// CR LF or CR; several "data:" lines of one event are joined with LF; comments (":") and other
// fields (event, id, retry) are skipped, as the WHATWG specification says.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace octo::remote {

class SseReader {
public:
    // The data of every event completed by `bytes`, in order.
    std::vector<std::string> feed(std::string_view bytes);
    // Bytes held that belong to no complete event yet (a stream that ends here was cut off).
    bool pending() const { return !line_.empty() || has_data_; }

private:
    void line(std::vector<std::string>& out);

    std::string line_;
    std::string data_;
    bool has_data_ = false;
    bool after_cr_ = false; // the previous byte was CR: a following LF ends nothing
};

} // namespace octo::remote
