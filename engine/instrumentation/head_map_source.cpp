#include "engine/instrumentation/head_map_source.h"

namespace octo {

Result<HeadMap> resolve_head_map(const Model& model, const std::string& map_file) {
    const ModelParams& p = model.params();
    if (!map_file.empty()) return HeadMap::load_file(map_file, p.n_layer, p.n_head);
    if (model.file().find(kHeadMapKey)) {
        auto text = model.file().get_string(kHeadMapKey);
        if (!text) return text.error();
        auto map = HeadMap::parse(text.value(), p.n_layer, p.n_head, HeadMapSource::Gguf);
        if (!map) return make_error(map.error().code, std::string(kHeadMapKey) + ": " + map.error().message);
        return map;
    }
    return HeadMap::make_default(p.n_layer, p.n_head);
}

} // namespace octo
