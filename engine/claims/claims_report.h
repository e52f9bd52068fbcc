// A claims run as data and as documents: the JSON of `octoscope-cli claims --json`, report.md (a
// table and one paragraph per claim, in English or Chinese) and one CSV per series — what the
// CLI's --report and the workbench's Export Report write (docs/claims.md, "Reports").
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/claims/claim_catalog.h"
#include "engine/claims/claim_lab.h"

namespace octo {

struct ClaimsReport {
    std::string model;   // the model's name and file
    std::string map;     // ClaimLab::map_name()
    std::string metric;  // the metric shares were read by
    LocalText note;      // what the results are evidence of (claims_note)
    std::string version; // the app's version
    std::string date;    // UTC, YYYY-MM-DD
    uint64_t seed = 1;
    int64_t items = 0;   // --items (0: each claim's own)
    std::vector<Claim> claims;        // in run order
    std::vector<ClaimResult> results; // [claims], the claims that finished
    bool complete = true;             // false: stopped before every claim had run
    std::vector<Claim> not_run;       // stopped: the claims that did not run (listed, never measured)
};

struct ClaimRunCallbacks {
    std::function<void(size_t index, const Claim& claim)> on_start;
    std::function<void(size_t index, const Claim& claim, const ClaimResult& result)> on_done;
};

// Runs `claims` in order on `lab`. A claim that fails (a prompt past the model's context, a
// variant file that does not open, a malformed parameter) is "not measurable" with the error as
// its reason, and the run goes on. A cancellation ends the run with what finished
// (complete = false; the rest in not_run). version and date are the caller's to fill.
Result<ClaimsReport> run_claims(ClaimLab& lab, const std::vector<Claim>& claims, const ClaimRunCallbacks& callbacks = {});

// The verdict with what qualifies it, one line: "holds; the article's value (+22.2 pt) is
// excluded", "inconclusive (decided at 95 % alone, not after Holm's correction for 16 claims)",
// "holds; about the product's router, not the loaded model".
std::string verdict_line(const Claim& claim, const ClaimResult& result, bool chinese = false);

// Holm's step-down correction over a run's decisions (results with an estimate and a verdict
// that is not "uninformative"), at one-sided α/2 = 0.025 — the level of a 95 % interval's side: a
// "holds" or "does not hold" whose p fails it becomes "inconclusive" (test.survived = false).
// run_claims applies it; the workbench, which runs claims one by one, applies it to its set.
void apply_holm(std::vector<ClaimResult>& results);

// Today's date in UTC, YYYY-MM-DD (a report's date).
std::string utc_date_today();

// The honesty note: on a model that was trained to have the subsystems (a head map stored in its
// GGUF and a router), a claim that holds shows the mechanism, not GPT-4; elsewhere, results describe
// this model with its map. Never evidence about GPT-4.
LocalText claims_note(const ClaimLab& lab);

// {"model", "map", "metric", "note", "note_zh", "seed", "items", "complete", "claims": [{"id", "section", "text",
// "text_zh", "article_figure", "unit", "measured", "ci95", "n", "verdict", "holds_if", "method",
// "reason", "details"}]}; measured and ci95 are null and n is 0 when not measurable. Claims that
// did not run (a stopped run) follow with "verdict": "not run".
nlohmann::json claims_json(const ClaimsReport& report);

// report.md in English or Chinese; `plots` maps claim ids to image file names beside it.
std::string claims_markdown(const ClaimsReport& report, bool chinese, const std::map<std::string, std::string>& plots = {});

// One series as CSV (RFC 4180 quoting).
std::string table_csv(const ClaimTable& table);

// Writes report.md, claims.csv (one row per claim), <id>-<series>.csv for every series and
// <id>-verdict.svg (claim_svg.h) for every measured claim into `dir` (created when missing).
// Returns the files written.
Result<std::vector<std::filesystem::path>> write_claims_report(const std::filesystem::path& dir, const ClaimsReport& report,
                                                               bool chinese = false,
                                                               const std::map<std::string, std::string>& plots = {});

} // namespace octo
