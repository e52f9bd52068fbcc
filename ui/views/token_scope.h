// Which positions of a run a per-position view shows: the selected token, or the mean over the
// prompt (without BOS) or over the answer — one choice for the layers × heads and layers × experts
// maps, with one combo box to offer it.
#pragma once

#include <QString>

#include <cstddef>

class QComboBox;
class QWidget;

namespace octo::ui {

struct RunRecord;

enum class TokenScope { SelectedToken, PromptMean, AnswerMean };

// [begin, end) of run.tokens(): the selected token (or the last when none is), the prompt without
// position 0 (BOS), or the generated tokens.
struct TokenRange {
    size_t begin = 0;
    size_t end = 0;
};
// `focused_token`: RunStore::focused_token() (the selected token, else the last; -1: none).
TokenRange token_range(TokenScope scope, const RunRecord& run, int focused_token);

// A combo box offering the three scopes (item data: the TokenScope), with `tooltip`.
QComboBox* new_scope_box(QWidget* parent); // its items follow the UI's language

} // namespace octo::ui
