#include "ui/views/token_scope.h"

#include <QComboBox>
#include <QCoreApplication>

#include <algorithm>

#include "ui/support/retranslate.h"
#include "ui/session/run_record.h"

namespace octo::ui {

TokenRange token_range(TokenScope scope, const RunRecord& run, int focused_token) {
    const size_t n = run.tokens().size();
    switch (scope) {
    case TokenScope::SelectedToken: {
        if (focused_token < 0) return {0, 0};
        const auto begin = static_cast<size_t>(focused_token);
        return {begin, std::min(n, begin + 1)};
    }
    case TokenScope::PromptMean: return {std::min<size_t>(1, run.n_prompt()), run.n_prompt()};
    case TokenScope::AnswerMean: return {run.n_prompt(), n};
    }
    return {};
}

QComboBox* new_scope_box(QWidget* parent) {
    auto* box = new QComboBox(parent);
    for (TokenScope s : {TokenScope::SelectedToken, TokenScope::PromptMean, TokenScope::AnswerMean}) box->addItem(QString(), static_cast<int>(s));
    on_language_change(box, [box] {
        box->setItemText(0, QCoreApplication::translate("octo::ui::TokenScope", "Selected token"));
        box->setItemText(1, QCoreApplication::translate("octo::ui::TokenScope", "Mean over the prompt"));
        box->setItemText(2, QCoreApplication::translate("octo::ui::TokenScope", "Mean over the answer"));
    });
    return box;
}

} // namespace octo::ui
