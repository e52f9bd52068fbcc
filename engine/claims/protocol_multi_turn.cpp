// multi_turn: the article's lesson that single-prompt tests mislead and multi-turn coherence must
// be measured (section 5.3). Paired on scripted conversations (params "conversations", a file
// under the resources: three user turns — facts, an unrelated request, a question about the facts
// — and the same facts and question as one prompt): the model answers the three turns one after
// the other, and the single prompt once; each version is measured with the coherence rules
// (engine/conversation/coherence.h). The value is the share of conversations with a break minus
// the share of single prompts with one (Newcombe's paired interval, McNemar's exact test): what a
// conversation shows that a single prompt does not. The single prompt is the control. Output-based,
// so it runs on a server too (each turn one chat request with the conversation so far).
// params also: "items" (conversations at most), "max_tokens" per answer.
#include <filesystem>

#include "engine/claims/claim_protocols.h"
#include "engine/conversation/coherence.h"
#include "engine/core/file_bytes.h"
#include "engine/core/json_fields.h"
#include "engine/generation/prompt_builder.h"

namespace octo {

namespace {

struct Script {
    std::string id;
    std::vector<std::string> turns;
    std::string single;
};

Result<std::vector<Script>> read_scripts(const std::string& path) {
    auto bytes = read_file_bytes(path, "the probe conversations");
    if (!bytes) return bytes.error();
    const nlohmann::json j = nlohmann::json::parse(bytes.value(), nullptr, false);
    if (j.is_discarded() || !j.contains("conversations") || !j["conversations"].is_array()) {
        return make_error(ErrorCode::Format, path + ": expected {\"conversations\": [...]}");
    }
    std::vector<Script> out;
    for (const nlohmann::json& c : j["conversations"]) {
        Script s;
        if (!c.is_object() || !c.value("id", nlohmann::json()).is_string() || !c.value("single", nlohmann::json()).is_string() ||
            !c.value("turns", nlohmann::json()).is_array() || c["turns"].empty()) {
            return make_error(ErrorCode::Format, path + ": each conversation needs \"id\", \"turns\" (user turns) and \"single\"");
        }
        s.id = c["id"].get<std::string>();
        s.single = c["single"].get<std::string>();
        for (const nlohmann::json& t : c["turns"]) {
            if (!t.is_string()) return make_error(ErrorCode::Format, path + ": " + s.id + ": turns are strings");
            s.turns.push_back(t.get<std::string>());
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::string findings_text(const CoherenceReport& r) {
    std::string out;
    for (const CoherenceFinding& f : r.findings) out += (out.empty() ? "" : "; ") + std::string(coherence_kind_name(f.kind)) + ": " + f.explanation;
    return out;
}

} // namespace

Result<ClaimResult> protocol_multi_turn(ClaimLab& lab, const Claim& claim) {
    const nlohmann::json& p = claim.params;
    // A server takes each conversation whole (the messages of a chat request) and renders it with
    // its own template; whether every turn reaches its model is the server's to say.
    std::string rendering = lab.model().server ? "the server's, as its chat endpoint renders a conversation" : "as the answer source renders it";
    if (lab.model().model) { // how a conversation reaches the model: its template, ChatML, or (octet) only its last user message
        const ConversationRendering how = conversation_rendering(lab.model().model->file());
        rendering = how.label();
        if (!how.whole()) {
            return not_measurable("the loaded model is not a chat model: it has a prompt template and no chat template, so only the "
                                  "last user message of a conversation reaches it (the built-in octet is such a model)");
        }
    }
    const std::filesystem::path dir(lab.data().resource_dir);
    auto scripts = read_scripts((dir / json_string_or(p, "conversations", "coherence/probe_conversations.json")).string());
    if (!scripts) return scripts.error();
    auto lexicon = read_default_sentiment_lexicon(lab.data().resource_dir);
    if (!lexicon) return lexicon.error();
    const int64_t max_tokens = int_param(p, "max_tokens", 48);
    const size_t n = std::min(scripts->size(), static_cast<size_t>(lab.items_per_subsystem(claim, static_cast<int64_t>(scripts->size()))));
    auto ask = [&](const std::vector<ChatMessage>& messages) -> Result<const ClaimAnswer*> {
        RunSpec q = claim_question({}, max_tokens);
        q.messages = messages;
        return lab.answer(q);
    };
    PairedCounts counts;
    ClaimTable table{"conversations", {"id", "conversation", "breaks_in_conversation", "single_prompt_answer", "breaks_in_single_prompt", "findings"}, {}};
    for (size_t i = 0; i < n; ++i) {
        const Script& s = (*scripts)[i];
        std::vector<ChatMessage> talk;
        for (const std::string& turn : s.turns) {
            talk.push_back({ChatRole::User, turn});
            auto a = ask(talk);
            if (!a) return a.error();
            talk.push_back({ChatRole::Assistant, a.value()->text});
        }
        auto single = ask({{ChatRole::User, s.single}});
        if (!single) return single.error();
        const std::vector<ChatMessage> one = {{ChatRole::User, s.single}, {ChatRole::Assistant, single.value()->text}};
        const CoherenceReport multi = measure_coherence(talk, lexicon.value());
        const CoherenceReport alone = measure_coherence(one, lexicon.value());
        counts.add(multi.findings.empty(), alone.findings.empty());
        std::string transcript;
        for (const ChatMessage& m : talk) transcript += std::string(transcript.empty() ? "" : " | ") + chat_role_name(m.role) + ": " + m.content;
        table.rows.push_back({s.id, transcript, std::to_string(multi.findings.size()), single.value()->text,
                              std::to_string(alone.findings.size()), findings_text(multi) + (alone.findings.empty() ? "" : " / single: " + findings_text(alone))});
        if (!lab.step(static_cast<int64_t>(i + 1), static_cast<int64_t>(n))) return make_error(ErrorCode::Cancelled, "the claims run was cancelled");
    }
    if (n == 0) return not_measurable("no probe conversation was selected");
    ClaimResult r;
    // a = the conversation, b = the single prompt, "right" = no break: p_b − p_a is the
    // conversations' break rate minus the single prompts'.
    r.estimate = paired_difference_estimate(counts);
    if (both_at_one_bound(counts)) {
        r.reason = counts.both > 0 ? "no conversation and no single prompt broke coherence, so they cannot be told apart"
                                   : "every conversation and every single prompt broke coherence, so they cannot be told apart";
    }
    r.details["mcnemar_exact_p"] = r.estimate->p_value.value_or(1.0);
    const Estimate in_talk = proportion_estimate(counts.only_b + counts.neither, counts.n());
    const Estimate in_single = proportion_estimate(counts.only_a + counts.neither, counts.n());
    r.details["break_rate_conversation"] = in_talk.value;
    r.details["break_rate_single_prompt"] = in_single.value;
    r.details["plot"] = bars_plot({"conversation (3 turns)", "single prompt"}, {in_talk.value, in_single.value},
                                  {in_talk.ci95, in_single.ci95}, "share with a coherence break");
    r.details["plot"]["labels_zh"] = {"对话（3 轮）", "单个提示"};
    r.method = "Paired on " + std::to_string(n) + " scripted conversations: the model answers three user turns (facts, an unrelated "
               "request, a question about the facts) one after the other, greedy, at most " + std::to_string(max_tokens) +
               " tokens each, and the same facts and question as one prompt; each version is checked with the coherence rules "
               "(docs/coherence.md: entity reference, logical continuity, sentiment stability). Value: the share of conversations "
               "with a break minus the share of single prompts with one; Newcombe's paired interval and McNemar's exact test. "
               "Rendering: " + rendering + ".";
    r.tables.push_back(std::move(table));
    return r;
}

} // namespace octo
