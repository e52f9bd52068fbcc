#include "ui/support/retranslate.h"

#include <QEvent>
#include <QObject>

namespace octo::ui {

namespace {

class LanguageHook : public QObject {
public:
    LanguageHook(QObject* watched, std::function<void()> retranslate) : QObject(watched), retranslate_(std::move(retranslate)) {
        watched->installEventFilter(this);
    }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LanguageChange && watched == parent()) retranslate_();
        return false;
    }

private:
    std::function<void()> retranslate_;
};

} // namespace

void on_language_change(QObject* watched, std::function<void()> retranslate) {
    retranslate();
    new LanguageHook(watched, std::move(retranslate));
}

} // namespace octo::ui
