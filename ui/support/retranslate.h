// Switching the UI language at run time (View → Language): install_translations
// (ui/support/language.h) makes Qt send QEvent::LanguageChange to every widget, and each part of
// the window that shows text sets it again. `on_language_change` is the one way they do so: the
// part's texts are set in one function, which it calls at once (the constructor's texts) and
// again on every LanguageChange that `watched` receives.
#pragma once

#include <functional>

class QObject;

namespace octo::ui {

// Calls `retranslate` now and whenever `watched` (a widget, or the window for an object that is
// none) receives QEvent::LanguageChange. The hook lives as long as `watched`.
void on_language_change(QObject* watched, std::function<void()> retranslate);

} // namespace octo::ui
