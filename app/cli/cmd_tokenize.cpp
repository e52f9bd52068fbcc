// octoscope-cli tokenize: text -> token ids with the model's own tokenizer.
#include <iostream>
#include <memory>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"

namespace octo::cli {

namespace {

struct TokenizeOptions {
    std::string model;
    std::string text;
    std::string text_file;
    bool bos = false;
    bool parse_special = false;
    bool json = false;
};

int run_tokenize(const TokenizeOptions& o) {
    std::string text = o.text;
    if (!o.text_file.empty()) {
        auto bytes = read_file_bytes(o.text_file, "text file");
        if (!bytes) return report_error(o.json, bytes.error());
        text = std::move(bytes.value());
    }
    auto file = GgufFile::open(o.model);
    if (!file) return report_error(o.json, file.error());
    auto vocab = vocab_from_gguf(file.value());
    if (!vocab) return report_error(o.json, o.model + ": " + vocab.error().message);
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return report_error(o.json, o.model + ": " + tokenizer.error().message);
    const Tokenizer& tok = tokenizer.value();

    auto encoded = tok.encode(text, /*add_special=*/false, o.parse_special);
    if (!encoded) return report_error(o.json, encoded.error());
    std::vector<int32_t> ids;
    if (o.bos) {
        if (tok.vocab().bos_id < 0) return report_error(o.json, "--bos given but the vocabulary has no BOS token");
        ids.push_back(tok.vocab().bos_id);
    }
    ids.insert(ids.end(), encoded->begin(), encoded->end());

    nlohmann::json pieces = nlohmann::json::array();
    nlohmann::json piece_bytes = nlohmann::json::array();
    for (int32_t id : ids) {
        const std::string& bytes = tok.token_bytes(id);
        pieces.push_back(valid_utf8(bytes));
        piece_bytes.push_back(hex_bytes(bytes));
    }
    if (o.json) {
        print_json({{"ids", ids}, {"pieces", pieces}, {"piece_bytes", piece_bytes}});
        return kExitOk;
    }
    for (size_t k = 0; k < ids.size(); ++k) {
        std::cout << ids[k] << '\t' << pieces[k].get<std::string>() << '\t' << piece_bytes[k].get<std::string>()
                  << '\n';
    }
    return kExitOk;
}

} // namespace

void add_tokenize_command(CLI::App& app, CommandRunner& run) {
    auto opts = std::make_shared<TokenizeOptions>();
    CLI::App* cmd = app.add_subcommand("tokenize", "Turn text into token ids with a model's tokenizer");
    cmd->add_option("--model,-m", opts->model, "GGUF file (a vocab-only file is enough)")->required();
    auto* text = cmd->add_option("--text,-t", opts->text, "Text to tokenize");
    auto* file = cmd->add_option("--text-file", opts->text_file, "Read the text from this file, byte for byte");
    text->excludes(file);
    cmd->add_flag("--bos", opts->bos, "Prepend the BOS token");
    cmd->add_flag("--parse-special", opts->parse_special, "Match control-token texts such as <s> in the text");
    cmd->add_flag("--json", opts->json, "Print one JSON object");
    cmd->callback([&run, opts, text, file] {
        run = [opts, text, file] {
            if (text->count() == 0 && file->count() == 0) {
                return report_error(opts->json, "give --text or --text-file", kExitUsage);
            }
            return run_tokenize(*opts);
        };
    });
}

} // namespace octo::cli
