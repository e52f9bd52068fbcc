#include "app/cli/bench_grammar.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "engine/generation/grammar_constraint.h"
#include "engine/gguf/gguf_file.h"
#include "engine/sampling/logprobs.h"
#include "engine/grammar/json_schema.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"

namespace octo::cli {

namespace {

// A record with the kinds of field users ask for: strings with bounds, an enum, integers with
// bounds, a number, a boolean, a nested object and an array of strings.
const char* const kSchema = R"({"type": "object", "properties": {
  "title": {"type": "string", "maxLength": 80},
  "status": {"enum": ["open", "closed", "blocked"]},
  "priority": {"type": "integer", "minimum": 1, "maximum": 5},
  "estimate_hours": {"type": "number"},
  "confirmed": {"type": "boolean"},
  "owner": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
            "required": ["name", "email"], "additionalProperties": false},
  "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}, "maxItems": 5},
  "summary": {"type": "string"}},
  "required": ["title", "status", "priority", "estimate_hours", "confirmed", "owner", "tags", "summary"],
  "additionalProperties": false})";

const char* const kDocument = R"({"title": "Crash when opening a Q3_K file on Windows", "status": "open", "priority": 2, )"
                              R"("estimate_hours": 6.5, "confirmed": true, "owner": {"name": "Zoë Martin", )"
                              R"("email": "zoe@example.org"}, "tags": ["loader", "windows", "k-quants"], )"
                              R"("summary": "The loader reads the super-block scales before checking the file size, so a )"
                              R"(truncated download crashes instead of naming the tensor. Reproduced with a 3 GB file cut )"
                              R"(at 1.2 GB; the fix checks every tensor's extent when the header is read."})";

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// What every walk works on: the vocabulary's tokenizer, the schema's grammar, the tokens to walk
// (the built-in document's; none with --mask-schema: the most probable allowed token of random
// logits is taken), and those logits.
struct MaskBench {
    Tokenizer tokenizer;
    std::string gbnf;
    std::vector<int32_t> walk;
    std::vector<float> logits;
    double lse = 0.0; // computed by the loop for the log-probabilities anyway: not the constraint's cost
};

Result<MaskBench> prepare_mask_bench(const GrammarBenchOptions& o) {
    auto gguf = GgufFile::open(o.vocab_file);
    if (!gguf) return gguf.error();
    auto vocab = vocab_from_gguf(*gguf);
    if (!vocab) return vocab.error();
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return tokenizer.error();
    std::string schema = kSchema;
    std::string document = kDocument;
    if (!o.schema_file.empty()) {
        std::ifstream in(o.schema_file, std::ios::binary);
        if (!in) return make_error(ErrorCode::Io, "cannot read the schema file " + o.schema_file);
        std::ostringstream text;
        text << in.rdbuf();
        schema = text.str();
        document.clear();
    }
    auto gbnf = json_schema_to_gbnf(schema);
    if (!gbnf) return gbnf.error();
    std::vector<int32_t> walk;
    if (!document.empty()) {
        auto ids = tokenizer->encode(document, false, false);
        if (!ids) return ids.error();
        walk = std::move(ids.value());
    }
    std::mt19937 rng(11);
    std::normal_distribution<float> normal(0.0f, 3.0f);
    std::vector<float> logits(static_cast<size_t>(tokenizer->n_tokens()));
    for (float& x : logits) x = normal(rng);
    const double lse = log_sum_exp(logits);
    return MaskBench{std::move(tokenizer.value()), std::move(gbnf.value()), std::move(walk), std::move(logits), lse};
}

using Clock = std::chrono::steady_clock;

struct Walk {
    double setup_ms = 0.0;
    std::vector<double> step_ms;
    std::vector<double> mask_ms; // the mask alone (ConstraintStep::mask_ms)
    size_t positions = 0;
};

// One walk from a fresh constraint: its set-up, then each step timed.
Result<Walk> walk_once(const MaskBench& b) {
    Walk w;
    const auto start = Clock::now();
    auto constraint = GrammarConstraint::create(b.gbnf, b.tokenizer);
    if (!constraint) return constraint.error();
    w.setup_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    std::vector<float> masked;
    const size_t steps = b.walk.empty() ? 200 : b.walk.size();
    for (size_t i = 0; i < steps; ++i) {
        ConstraintStep step;
        const auto t0 = Clock::now();
        if (auto s = (*constraint)->apply(b.logits, b.lse, masked, step); !s) return s.error();
        w.step_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        w.mask_ms.push_back(step.mask_ms);
        int32_t next = -1;
        if (!b.walk.empty()) {
            next = b.walk[i];
            if (masked[static_cast<size_t>(next)] == -std::numeric_limits<float>::infinity()) {
                return make_error(ErrorCode::InvalidArgument, "the document's token " + std::to_string(i) + " is not allowed");
            }
        } else {
            next = static_cast<int32_t>(std::max_element(masked.begin(), masked.end()) - masked.begin());
            if (b.tokenizer.is_eog(next)) break;
        }
        (*constraint)->accept(next);
    }
    w.positions = (*constraint)->positions_sorted();
    return w;
}

} // namespace

Result<nlohmann::json> bench_grammar_mask(const GrammarBenchOptions& o, double decode_ms_per_token) {
    auto bench = prepare_mask_bench(o);
    if (!bench) return bench.error();
    auto cold = walk_once(bench.value());
    if (!cold) return cold.error();
    std::vector<double> warm_steps, warm_masks;
    double warm_setup = 0.0;
    for (int r = 0; r < std::max(1, o.repetitions); ++r) {
        auto warm = walk_once(bench.value());
        if (!warm) return warm.error();
        warm_setup = warm->setup_ms;
        warm_steps.insert(warm_steps.end(), warm->step_ms.begin(), warm->step_ms.end());
        warm_masks.insert(warm_masks.end(), warm->mask_ms.begin(), warm->mask_ms.end());
    }
    double cold_total = cold->setup_ms;
    for (double ms : cold->step_ms) cold_total += ms;
    const double warm_median = median(warm_steps);
    const double warm_max = warm_steps.empty() ? 0.0 : *std::max_element(warm_steps.begin(), warm_steps.end());
    double warm_mean = 0.0;
    for (double ms : warm_steps) warm_mean += ms;
    warm_mean /= static_cast<double>(std::max<size_t>(1, warm_steps.size()));
    nlohmann::json out = {
        {"vocab_file", o.vocab_file},
        {"n_vocab", bench->logits.size()},
        {"schema", o.schema_file.empty() ? std::string("built-in") : o.schema_file},
        {"tokens", cold->step_ms.size()},
        {"positions_sorted", cold->positions},
        {"first_run_ms", cold_total},
        {"first_run_setup_ms", cold->setup_ms},
        {"setup_ms", warm_setup},
        {"step_ms_median", warm_median},
        {"step_ms_mean", warm_mean},
        {"step_ms_max", warm_max},
        {"mask_only_ms_median", median(warm_masks)},
        {"first_run_step_ms_mean", (cold_total - cold->setup_ms) / static_cast<double>(std::max<size_t>(1, cold->step_ms.size()))},
    };
    if (decode_ms_per_token > 0.0) {
        out["decode_ms_per_token"] = decode_ms_per_token;
        out["share_of_decode"] = warm_mean / decode_ms_per_token;
        out["first_run_share_of_decode"] =
            (cold_total / static_cast<double>(std::max<size_t>(1, cold->step_ms.size()))) / decode_ms_per_token;
    }
    return out;
}

} // namespace octo::cli
