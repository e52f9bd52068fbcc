#include "engine/core/file_bytes.h"

#include <fstream>
#include <iterator>

namespace octo {

Result<std::string> read_file_bytes(const std::string& path, const std::string& what) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, "cannot open " + what + " '" + path + "'");
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return make_error(ErrorCode::Io, "cannot read " + what + " '" + path + "'");
    return bytes;
}

} // namespace octo
