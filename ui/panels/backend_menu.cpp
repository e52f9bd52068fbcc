#include "ui/panels/backend_menu.h"

#include <QMenu>

namespace octo::ui {

BackendMenu::BackendMenu(QMenu* parent)
    : RememberedChoiceMenu(parent, tr("&Backend"), QStringLiteral("backend"),
                           {{QStringLiteral("auto"), tr("&Auto (CUDA when usable, else CPU)")},
                            {QStringLiteral("cpu"), tr("&CPU")},
                            {QStringLiteral("cuda"), tr("C&UDA")}}) {}

} // namespace octo::ui
