// The article's testable claims as data (resources/claims/claims.json, schema in
// docs/claims.md): each claim has a short title for lists, names the article's section, its words
// in English and Chinese, the
// article's figure (a number, or its words where it gives none), the protocol that measures it
// with that protocol's parameters, and what "holds" means — a threshold test on the measured
// value's 95 % interval. Protocols are code (claim_protocols.h); a new claim that reuses one is
// an edit of the data file. A claim nothing here can measure is listed with the reason instead of a
// protocol ("not_measurable_here"). Loading validates strictly: an error names the file, the claim and
// the field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/advisor/advisor_rules.h" // LocalText
#include "engine/claims/claim_statistics.h"
#include "engine/core/result.h"

namespace octo {

// How a claim's measured value reads: a share (shown as %), a difference of shares (percentage
// points) or a plain coefficient.
enum class ClaimUnit { Share, Points, Coefficient };
const char* claim_unit_name(ClaimUnit unit); // "share", "points", "coefficient"

// What a claim's measurement is about: the loaded model, or a part of the product that does not
// depend on it (the router fitted on the probes, the KV pool's prefix reuse) — whose verdicts say
// so and are never a verdict about the model.
enum class ClaimSubject { Model, Router, KvPool };
const char* claim_subject_name(ClaimSubject subject); // "model", "router", "kv_pool"
// "" for the model; otherwise the words a verdict carries: "about the product's router, not the loaded model".
const char* claim_subject_note(ClaimSubject subject);

struct Claim {
    std::string id;       // "router-accuracy": file names, the CLI and JSON; never shown as a title
    LocalText title;      // "Router accuracy": what lists and headings show
    std::string section;  // the article's section, "4"
    LocalText text;       // the claim in the article's words
    nlohmann::json article_figure; // a number (in the claim's unit) or the article's words
    ClaimUnit unit = ClaimUnit::Share;
    std::string protocol;  // a protocol id (claim_protocols.h)
    nlohmann::json params; // the protocol's parameters (an object)
    ThresholdTest test = ThresholdTest::Above;
    double threshold = 0.0;
    LocalText holds;       // what "holds" means, in words
    ClaimSubject subject = ClaimSubject::Model;
    // A claim of the article that nothing here can measure (a human study, GPT-4's hardware, a
    // feature the product lacks): one sentence why, and no protocol, parameters or threshold.
    // Listed so that the catalogue is silent about nothing; its verdict is "not measurable here".
    LocalText not_measurable_here;
    bool measurable() const { return not_measurable_here.en.empty(); }
    // A claim that reads subsystem shares or switches runs beside a control: the same protocol on
    // the same model with its map shuffled (each layer's labels permuted). "holds" then needs the
    // measured interval to clear the control's by this margin, in the claim's unit (nullopt: no control).
    std::optional<double> control_margin;
};

struct ClaimCatalog {
    std::vector<Claim> claims;
    const Claim* find(std::string_view id) const;
};

Result<ClaimCatalog> parse_claim_catalog(const nlohmann::json& doc, const std::string& path);
Result<ClaimCatalog> read_claim_catalog(const std::string& path);

// The article's figure as text: a number in the claim's unit ("78.3 %", "+22.2 pt", "0.56"), or the words.
std::string format_claim_value(ClaimUnit unit, double value);
std::string article_figure_text(const Claim& claim);

} // namespace octo
