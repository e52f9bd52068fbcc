#include "ui/session/session_state.h"

#include <QJsonDocument>

#include <set>
#include <string>

#include "engine/capture/capture_fields.h"
#include "engine/chat/chat_messages_json.h"
#include "engine/capture/run_spec_json.h"

namespace octo::ui {

namespace {

// The settings every autosave has held since the first version; the others were added later
// (precision, stops, experts …) and take RunSpec's defaults when absent.
bool may_be_absent(std::string_view key) {
    static const std::set<std::string_view> always = {"prompt", "chat", "system", "max_tokens", "temperature", "seed",
                                                      "top_p", "top_k", "dla", "record_attention", "disabled", "ablation_mode"};
    return !always.contains(key);
}

nlohmann::json engine_json(const QJsonObject& o) {
    return nlohmann::json::parse(QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString(), nullptr, false);
}

QJsonObject qt_json(const nlohmann::json& j) {
    const std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
}

} // namespace

QJsonObject session_to_json(const SessionState& state) {
    nlohmann::json j = run_spec_json(state.spec, ByteStrings::Text);
    j["model"] = state.model_path.toStdString();
    j["metric"] = metric_name(state.metric);
    if (!state.conversation.empty()) j["conversation"] = chat_messages_json(state.conversation);
    return qt_json(j);
}

std::optional<SessionState> session_from_json(const QJsonObject& object, QString* error) {
    nlohmann::json j = engine_json(object);
    if (j.is_object() && j.contains("ablation") && !j.contains("ablation_mode")) { // version 1's name
        j["ablation_mode"] = j["ablation"];
        j.erase("ablation");
    }
    std::vector<ChatMessage> conversation;
    if (j.is_object() && j.contains("conversation")) {
        if (const auto problem = chat_messages_from_json(j["conversation"], conversation, "conversation")) {
            *error = QString::fromStdString(problem->message);
            return std::nullopt;
        }
        j.erase("conversation");
    }
    std::string why;
    FieldReader r(j, "", why);
    SessionState state;
    state.conversation = std::move(conversation);
    state.model_path = QString::fromStdString(r.text("model"));
    const std::string metric = r.text("metric");
    read_run_spec(r, state.spec, may_be_absent);
    if (r.ok()) {
        if (const auto m = parse_metric(metric)) state.metric = *m;
        else r.fail("metric", "\"" + metric + "\" is not a known value");
    }
    if (!r.ok()) {
        *error = QString::fromStdString(why);
        return std::nullopt;
    }
    return state;
}

} // namespace octo::ui
