#include "app/cli/subsystem_list.h"

namespace octo::cli {

Result<std::array<bool, kSubsystemCount>> parse_subsystem_list(const std::vector<std::string>& items,
                                                               const std::string& option) {
    std::array<bool, kSubsystemCount> set{};
    for (const std::string& item : items) {
        size_t start = 0;
        while (true) {
            const size_t comma = item.find(',', start);
            const std::string id = item.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (!id.empty()) {
                const auto index = subsystem_index(id);
                if (!index) {
                    return make_error(ErrorCode::InvalidArgument,
                                      option + ": unknown subsystem '" + id + "' (use rte-a … rte-h)");
                }
                set[static_cast<size_t>(*index)] = true;
            }
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return set;
}

nlohmann::json subsystem_list_json(const std::array<bool, kSubsystemCount>& set) {
    nlohmann::json ids = nlohmann::json::array();
    for (int s = 0; s < kSubsystemCount; ++s) {
        if (set[static_cast<size_t>(s)]) ids.push_back(subsystem_id(s));
    }
    return ids;
}

} // namespace octo::cli
