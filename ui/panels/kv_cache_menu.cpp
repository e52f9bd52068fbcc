#include "ui/panels/kv_cache_menu.h"

#include <QMenu>

namespace octo::ui {

KvCacheMenu::KvCacheMenu(QMenu* parent)
    : RememberedChoiceMenu(parent, tr("&KV Cache"), QStringLiteral("kv_cache"),
                           {{QStringLiteral("default"), tr("&Default (F16 at reference precision, F32 at exact)")},
                            {QStringLiteral("f32"), tr("F&32 keys and values")},
                            {QStringLiteral("f16"), tr("F&16 keys and values (half the memory)")},
                            {QStringLiteral("q8_0"), tr("Q&8_0 keys and values (about a quarter; CPU)")},
                            {QStringLiteral("q4_0"), tr("Q&4_0 keys and values (about an eighth; CPU)")}}) {}

KvTypeChoice KvCacheMenu::types() const {
    const auto type = parse_kv_type(choice().toStdString());
    return {type, type};
}

} // namespace octo::ui
