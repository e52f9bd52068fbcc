#include "ui/views/token_scope.h"

#include <QComboBox>
#include <QCoreApplication>

#include <algorithm>

#include "ui/session/run_record.h"

namespace octo::ui {

TokenRange token_range(TokenScope scope, const RunRecord& run, int selected_token) {
    const size_t n = run.tokens().size();
    switch (scope) {
    case TokenScope::SelectedToken: {
        const int s = selected_token >= 0 ? selected_token : static_cast<int>(n) - 1;
        const auto begin = static_cast<size_t>(std::max(0, s));
        return {begin, std::min(n, begin + 1)};
    }
    case TokenScope::PromptMean: return {std::min<size_t>(1, run.n_prompt()), run.n_prompt()};
    case TokenScope::AnswerMean: return {run.n_prompt(), n};
    }
    return {};
}

QComboBox* new_scope_box(QWidget* parent, const QString& tooltip) {
    auto* box = new QComboBox(parent);
    box->addItem(QCoreApplication::translate("octo::ui::TokenScope", "Selected token"), static_cast<int>(TokenScope::SelectedToken));
    box->addItem(QCoreApplication::translate("octo::ui::TokenScope", "Mean over the prompt"), static_cast<int>(TokenScope::PromptMean));
    box->addItem(QCoreApplication::translate("octo::ui::TokenScope", "Mean over the answer"), static_cast<int>(TokenScope::AnswerMean));
    box->setToolTip(tooltip);
    return box;
}

} // namespace octo::ui
