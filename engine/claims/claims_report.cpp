#include "engine/claims/claims_report.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <sstream>

#include "engine/claims/claim_protocols.h"
#include "engine/claims/claim_svg.h"
#include "engine/core/atomic_file.h"
#include "engine/core/utf8_text.h"

namespace octo {

namespace {

// A token's bytes may stop mid-character: such bytes are written as \xNN, so the CSV is valid UTF-8.
std::string csv_cell(const std::string& raw) {
    const std::string s = utf8_with_escaped_bytes(raw);
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"') out += "\"\"";
        else out.push_back(c);
    }
    return out + "\"";
}

std::string holds_if(const Claim& c) {
    if (!c.measurable()) return "—";
    const char* op = c.test == ThresholdTest::Above ? ">" : c.test == ThresholdTest::AtLeast ? "≥" : c.test == ThresholdTest::Below ? "<" : "≤";
    return std::string("95 % interval ") + op + " " + format_claim_value(c.unit, c.threshold);
}

const char* verdict_zh(Verdict v) {
    switch (v) {
    case Verdict::Holds: return "成立";
    case Verdict::DoesNotHold: return "不成立";
    case Verdict::Inconclusive: return "无定论";
    case Verdict::NotMeasurable: return "无法在此模型上测量";
    case Verdict::Uninformative: return "数据无信息量";
    case Verdict::NotMeasurableHere: return "无法在此测量";
    }
    return "";
}

std::string figure_clause(const Claim& c, const ClaimResult& r, bool zh) {
    if (!r.test.figure_in_interval) return "";
    const std::string figure = article_figure_text(c);
    if (zh) return *r.test.figure_in_interval ? "；文章的数字（" + figure + "）在区间内" : "；文章的数字（" + figure + "）在区间外";
    return *r.test.figure_in_interval ? "; the article's value (" + figure + ") lies inside the interval"
                                      : "; the article's value (" + figure + ") is excluded";
}

// The control's value and interval, "12.0 % [9.1 %, 15.3 %]", or "—".
std::string control_text(const Claim& c, const ClaimResult& r) {
    if (!r.control || !r.control->estimate) return "—";
    const Estimate& e = *r.control->estimate;
    return format_claim_value(c.unit, e.value) + " [" + format_claim_value(c.unit, e.ci95.lo) + ", " + format_claim_value(c.unit, e.ci95.hi) + "]";
}

// The margin as a difference in the claim's unit: "2.0 pt", "0.100".
std::string margin_text(const Claim& c, double margin) {
    char buf[32];
    if (c.unit == ClaimUnit::Coefficient) std::snprintf(buf, sizeof buf, "%.3f", margin);
    else std::snprintf(buf, sizeof buf, "%.1f pt", 100.0 * margin);
    return buf;
}

std::string control_clause(const Claim& c, const ClaimResult& r, bool zh) {
    if (!r.control || (r.verdict != Verdict::Holds && r.verdict != Verdict::Inconclusive)) return "";
    const ControlResult& k = *r.control;
    if (!k.estimate) return zh ? "；未能运行打乱映射对照：" + k.reason : "; no shuffled-map control: " + k.reason;
    const std::string m = margin_text(c, k.margin);
    if (k.beaten) {
        return zh ? "；超过打乱映射对照（" + control_text(c, r) + "）" + m + "以上"
                  : "; beats the shuffled-map control (" + control_text(c, r) + ") by more than " + m;
    }
    return zh ? "；未以 " + m + " 的差距超过打乱映射对照（" + control_text(c, r) + "）"
              : "; does not beat the shuffled-map control (" + control_text(c, r) + ") by " + m;
}

std::string md_escape(std::string s) {
    std::string out;
    for (const char c : s) {
        if (c == '|') out += "\\|";
        else if (c == '\n') out += ' ';
        else out.push_back(c);
    }
    return out;
}

} // namespace

std::string verdict_line(const Claim& c, const ClaimResult& r, bool zh) {
    std::string line = zh ? verdict_zh(r.verdict) : verdict_name(r.verdict);
    if (r.estimate && !r.test.survived) {
        line += zh ? "（单独检验成立或不成立，但经 Holm 校正后不再显著）"
                   : " (decided at 95 % alone, not after Holm's correction for " + std::to_string(r.test.family) + " claims)";
    }
    if (r.verdict == Verdict::Holds || r.verdict == Verdict::DoesNotHold || r.verdict == Verdict::Inconclusive) {
        line += figure_clause(c, r, zh);
    }
    line += control_clause(c, r, zh);
    if (c.subject != ClaimSubject::Model && r.verdict != Verdict::NotMeasurable && r.verdict != Verdict::NotMeasurableHere) {
        line += zh ? (c.subject == ClaimSubject::Router ? "；这是关于产品路由器的结论，不是关于所加载模型的"
                                                         : "；这是关于产品 KV 池的结论，不是关于所加载模型的")
                   : std::string("; ") + claim_subject_note(c.subject);
    }
    return line;
}

Result<ClaimsReport> run_claims(ClaimLab& lab, const std::vector<Claim>& claims, const ClaimRunCallbacks& callbacks) {
    ClaimsReport report;
    report.map = lab.map_name();
    report.metric = metric_name(lab.metric());
    report.note = claims_note(lab);
    report.seed = lab.options().seed;
    report.items = lab.options().items;
    report.model = lab.model().name;
    for (size_t i = 0; i < claims.size(); ++i) {
        if (callbacks.on_start) callbacks.on_start(i, claims[i]);
        auto r = lab.run(claims[i]);
        if (!r && r.error().code == ErrorCode::Cancelled) {
            report.complete = false;
            report.not_run.assign(claims.begin() + static_cast<std::ptrdiff_t>(i), claims.end());
            break;
        }
        ClaimResult result = r ? std::move(r.value()) : not_measurable(r.error().message);
        result.id = claims[i].id;
        report.claims.push_back(claims[i]);
        report.results.push_back(std::move(result));
        if (callbacks.on_done) callbacks.on_done(i, report.claims.back(), report.results.back());
    }
    apply_holm(report.results);
    return report;
}

void apply_holm(std::vector<ClaimResult>& results) {
    std::vector<size_t> tested;
    std::vector<double> p;
    for (size_t i = 0; i < results.size(); ++i) {
        if (!results[i].estimate || results[i].verdict == Verdict::Uninformative) continue;
        tested.push_back(i);
        p.push_back(results[i].test.p);
    }
    const std::vector<HolmStep> steps = holm(p, kAlpha / 2.0);
    for (size_t k = 0; k < tested.size(); ++k) {
        ClaimResult& r = results[tested[k]];
        r.test.family = static_cast<int64_t>(tested.size());
        r.test.level = steps[k].level;
        r.test.survived = steps[k].passes || (r.verdict != Verdict::Holds && r.verdict != Verdict::DoesNotHold);
        if (!r.test.survived) r.verdict = Verdict::Inconclusive;
    }
}

std::string utc_date_today() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char date[16];
    std::strftime(date, sizeof date, "%Y-%m-%d", &tm);
    return date;
}

LocalText claims_note(const ClaimLab& lab) {
    const ClaimModel& m = lab.model();
    if (m.map && m.map->source() == HeadMapSource::Gguf && m.model && m.model->weights().has_router()) {
        return {"This model was built to have the eight subsystems: its head groups were trained on tasks written per "
                "subsystem and told which are theirs. A claim that holds here shows the mechanism the article describes "
                "at work in a model made for it; it is no evidence about GPT-4 or any other model.",
                "这个模型是为了具有八个子系统而构建的：它的头组在按子系统编写的任务上训练，并被告知哪些任务属于自己。"
                "论断在这里成立，说明文章描述的机制在一个专门为此构建的模型中起作用；这不是关于 GPT-4 或任何其他模型的证据。"};
    }
    return {"These results describe this model under its " + lab.map_name() +
                "; they are no evidence about GPT-4, whose figures the article gives without a way to check them.",
            "这些结果描述的是此模型（" + lab.map_name() + "）；它们不是关于 GPT-4 的证据，文章给出的 GPT-4 数字无从核实。"};
}

nlohmann::json claims_json(const ClaimsReport& report) {
    nlohmann::json claims = nlohmann::json::array();
    for (size_t i = 0; i < report.results.size() && i < report.claims.size(); ++i) {
        const Claim& c = report.claims[i];
        const ClaimResult& r = report.results[i];
        nlohmann::json j = {
            {"id", c.id},
            {"title", c.title.en},
            {"title_zh", c.title.zh},
            {"section", c.section},
            {"text", c.text.en},
            {"text_zh", c.text.zh},
            {"article_figure", c.article_figure},
            {"unit", claim_unit_name(c.unit)},
            {"measured", r.estimate ? nlohmann::json(r.estimate->value) : nlohmann::json()},
            {"ci95", r.estimate ? nlohmann::json::array({r.estimate->ci95.lo, r.estimate->ci95.hi}) : nlohmann::json()},
            {"n", r.estimate ? r.estimate->n : 0},
            {"interval_method", r.estimate ? nlohmann::json(interval_method_name(r.estimate->method)) : nlohmann::json()},
            {"verdict", verdict_name(r.verdict)},
            {"holds_if", c.measurable() ? nlohmann::json{{"test", threshold_test_name(c.test)}, {"value", c.threshold}, {"text", c.holds.en}}
                                        : nlohmann::json()},
            {"method", r.method},
            {"details", r.details},
        };
        if (!r.reason.empty()) j["reason"] = r.reason;
        if (!c.measurable()) j["reason_zh"] = c.not_measurable_here.zh;
        if (r.estimate && r.estimate->p_value) j["mcnemar_exact_p"] = *r.estimate->p_value;
        if (r.estimate && r.estimate->resamples > 0) j["resamples"] = r.estimate->resamples;
        j["subject"] = claim_subject_name(c.subject);
        if (r.control) {
            const ControlResult& k = *r.control;
            j["control"] = {{"kind", "shuffled map"},
                            {"margin", k.margin},
                            {"measured", k.estimate ? nlohmann::json(k.estimate->value) : nlohmann::json()},
                            {"ci95", k.estimate ? nlohmann::json::array({k.estimate->ci95.lo, k.estimate->ci95.hi}) : nlohmann::json()},
                            {"beaten", k.beaten}};
            if (!k.reason.empty()) j["control"]["reason"] = k.reason;
        }
        if (r.estimate) {
            j["test"] = {{"p_one_sided", r.test.p}, {"holm_family", r.test.family}, {"holm_level", r.test.level},
                         {"survived_holm", r.test.survived}};
            if (r.test.figure_in_interval) j["article_figure_in_ci95"] = *r.test.figure_in_interval;
        }
        j["verdict_line"] = verdict_line(c, r);
        claims.push_back(std::move(j));
    }
    for (const Claim& c : report.not_run) {
        claims.push_back({{"id", c.id}, {"title", c.title.en}, {"title_zh", c.title.zh}, {"section", c.section}, {"text", c.text.en},
                          {"text_zh", c.text.zh}, {"article_figure", c.article_figure}, {"unit", claim_unit_name(c.unit)},
                          {"measured", nullptr}, {"ci95", nullptr}, {"n", 0}, {"verdict", "not run"},
                          {"reason", "the run was stopped before this claim"}});
    }
    return {{"model", report.model}, {"map", report.map},     {"metric", report.metric},     {"note", report.note.en}, {"note_zh", report.note.zh},
            {"seed", report.seed},   {"items", report.items}, {"complete", report.complete}, {"version", report.version},
            {"claims", claims}};
}

std::string claims_markdown(const ClaimsReport& report, bool zh, const std::map<std::string, std::string>& plots) {
    std::ostringstream md;
    md << (zh ? "# 论断实验室报告\n\n" : "# Claims lab report\n\n");
    md << (zh ? "- 模型：" : "- Model: ") << report.model << '\n';
    md << (zh ? "- 子系统映射：" : "- Subsystem map: ") << report.map << (zh ? "（度量：" : " (metric: ") << report.metric << (zh ? "）\n" : ")\n");
    md << (zh ? "- 种子：" : "- Seed: ") << report.seed << (zh ? "；每个子系统的条目数：" : "; items per subsystem: ")
       << (report.items > 0 ? std::to_string(report.items) : std::string(zh ? "各论断的默认值" : "each claim's default")) << '\n';
    md << (zh ? "- 版本：" : "- Version: ") << report.version << (zh ? "；日期：" : "; date: ") << report.date << "\n\n";
    md << "> " << report.note.in(zh) << "\n\n";
    if (!report.complete) md << (zh ? "**运行在所有论断完成前被停止；下面只有已完成的论断。**\n\n" : "**The run was stopped before every claim had run; only the finished claims are below.**\n\n");
    md << (zh ? "| 论断 | 文章给出的数字 | 成立条件 | 测得值 | 95 % 区间 | n | 打乱映射对照 | 结论 |\n|---|---|---|---|---|---|---|---|\n"
              : "| claim | article's figure | holds if | measured | 95 % interval | n | shuffled-map control | verdict |\n|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < report.results.size(); ++i) {
        const Claim& c = report.claims[i];
        const ClaimResult& r = report.results[i];
        md << "| " << c.id << " | " << md_escape(article_figure_text(c)) << " | " << md_escape(holds_if(c)) << " | ";
        if (r.estimate) {
            md << format_claim_value(c.unit, r.estimate->value) << " | [" << format_claim_value(c.unit, r.estimate->ci95.lo) << ", "
               << format_claim_value(c.unit, r.estimate->ci95.hi) << "] | " << r.estimate->n;
        } else {
            md << "— | — | 0";
        }
        md << " | " << md_escape(control_text(c, r)) << " | " << md_escape(verdict_line(c, r, zh)) << " |\n";
    }
    md << '\n';
    for (size_t i = 0; i < report.results.size(); ++i) {
        const Claim& c = report.claims[i];
        const ClaimResult& r = report.results[i];
        md << "## " << c.id << (zh ? "（文章第 " : " (article section ") << c.section << (zh ? " 节）\n\n" : ")\n\n");
        md << "> " << (zh ? c.text.zh : c.text.en) << "\n\n";
        md << (zh ? "**文章给出的数字：** " : "**Article's figure:** ") << article_figure_text(c) << (zh ? "（未经验证）。" : " (unverified). ");
        if (!c.measurable()) {
            md << (zh ? "**结论：** 无法在此测量 — " : "**Verdict:** not measurable here — ") << c.not_measurable_here.in(zh) << "\n\n";
            continue;
        }
        md << (zh ? "**成立的含义：** " : "**Holds when:** ") << (zh ? c.holds.zh : c.holds.en) << " (" << holds_if(c) << ").\n\n";
        if (r.estimate) {
            md << (zh ? "**测得：** " : "**Measured:** ") << format_claim_value(c.unit, r.estimate->value) << (zh ? "，95 % 区间 [" : ", 95 % interval [")
               << format_claim_value(c.unit, r.estimate->ci95.lo) << ", " << format_claim_value(c.unit, r.estimate->ci95.hi)
               << "], n = " << r.estimate->n << " (" << interval_method_name(r.estimate->method);
            if (r.estimate->p_value) md << (zh ? "；McNemar 精确检验 p = " : "; exact McNemar p = ") << fmt(*r.estimate->p_value, 4);
            md << (zh ? ")。**结论：** " : "). **Verdict:** ") << verdict_line(c, r, zh);
            md << (zh ? "（单侧 p = " : " (one-sided p = ") << fmt(r.test.p, 4) << (zh ? "，Holm 水平 " : ", Holm level ")
               << fmt(r.test.level, 4) << (zh ? "，共 " : " over ") << r.test.family << (zh ? " 个论断）" : " claims)");
            if (!r.reason.empty()) md << " — " << r.reason;
            md << ".\n\n";
        } else {
            md << (zh ? "**结论：** 无法在此模型上测量 — " : "**Verdict:** not measurable on this model — ") << r.reason << "\n\n";
        }
        if (!r.method.empty()) md << (zh ? "**方法（英文）：** " : "**Method:** ") << r.method << "\n\n";
        if (r.estimate) md << "![" << c.id << (zh ? " 结论" : " verdict") << "](" << c.id << "-verdict.svg)\n\n";
        if (auto p = plots.find(c.id); p != plots.end()) md << "![" << c.id << "](" << p->second << ")\n\n";
        for (const ClaimTable& t : r.tables) md << "- " << (zh ? "数据：" : "Data: ") << "[" << c.id << "-" << t.name << ".csv](" << c.id << "-" << t.name << ".csv)\n";
        if (!r.tables.empty()) md << '\n';
    }
    return md.str();
}

std::string table_csv(const ClaimTable& table) {
    std::string out;
    for (size_t i = 0; i < table.columns.size(); ++i) out += (i ? "," : "") + csv_cell(table.columns[i]);
    out += '\n';
    for (const auto& row : table.rows) {
        for (size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_cell(row[i]);
        out += '\n';
    }
    return out;
}

Result<std::vector<std::filesystem::path>> write_claims_report(const std::filesystem::path& dir, const ClaimsReport& report,
                                                               bool chinese, const std::map<std::string, std::string>& plots) {
    std::vector<std::filesystem::path> written;
    auto write = [&](const std::string& name, const std::string& bytes) -> Status {
        const auto path = dir / name;
        if (auto s = write_file_atomic(path, bytes); !s) return s;
        written.push_back(path);
        return Ok{};
    };
    if (auto s = write("report.md", claims_markdown(report, chinese, plots)); !s) return s.error();
    ClaimTable summary{"claims", {"id", "section", "article_figure", "unit", "holds_if", "measured", "ci95_lo", "ci95_hi", "n",
                                  "interval_method", "p_one_sided", "holm_level", "control", "control_beaten", "verdict",
                                  "verdict_line"}, {}};
    for (size_t i = 0; i < report.results.size(); ++i) {
        const Claim& c = report.claims[i];
        const ClaimResult& r = report.results[i];
        summary.rows.push_back({c.id, c.section, article_figure_text(c), claim_unit_name(c.unit), holds_if(c),
                                r.estimate ? fmt(r.estimate->value, 6) : "", r.estimate ? fmt(r.estimate->ci95.lo, 6) : "",
                                r.estimate ? fmt(r.estimate->ci95.hi, 6) : "", r.estimate ? std::to_string(r.estimate->n) : "0",
                                r.estimate ? interval_method_name(r.estimate->method) : "", r.estimate ? fmt(r.test.p, 6) : "",
                                r.estimate ? fmt(r.test.level, 6) : "", control_text(c, r),
                                r.control ? (r.control->beaten ? "yes" : "no") : "", verdict_name(r.verdict), verdict_line(c, r)});
        for (const ClaimTable& t : r.tables) {
            if (auto s = write(c.id + "-" + t.name + ".csv", table_csv(t)); !s) return s.error();
        }
        if (r.estimate) {
            if (auto s = write(c.id + "-verdict.svg", verdict_svg(c, r, chinese)); !s) return s.error();
        }
    }
    if (auto s = write("claims.csv", table_csv(summary)); !s) return s.error();
    return written;
}

} // namespace octo
