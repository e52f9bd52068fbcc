#include "app/cli/cli_output.h"

#include <fstream>
#include <iostream>
#include <iterator>

namespace octo::cli {

int report_error(bool json, const std::string& message, int exit_code) {
    std::string line = valid_utf8(message);
    for (char& ch : line) {
        if (ch == '\n' || ch == '\r') ch = ' ';
    }
    std::cerr << "octoscope-cli: error: " << line << '\n';
    if (json) print_json({{"error", line}});
    return exit_code;
}

int report_error(bool json, const Error& error) { return report_error(json, error.message, kExitError); }

void print_json(const nlohmann::json& object) {
    std::cout << object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    std::cout.flush();
}

std::string hex_bytes(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char ch : bytes) {
        const auto b = static_cast<unsigned char>(ch);
        out.push_back(kDigits[b >> 4]);
        out.push_back(kDigits[b & 15]);
    }
    return out;
}

} // namespace octo::cli
