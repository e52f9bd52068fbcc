// Model → Backend: Auto (CUDA when usable, else the CPU), CPU or CUDA. The choice is
// remembered (QSettings "backend") and applies to the next model load; changing it reloads the
// open model. The engine decides what "usable" means (engine/host/engine_host.h load_model).
#pragma once

#include "ui/panels/remembered_choice_menu.h"

namespace octo::ui {

class BackendMenu : public RememberedChoiceMenu {
    Q_OBJECT
public:
    // Adds the submenu to `parent`, checked at the remembered choice: "auto", "cpu" or "cuda".
    explicit BackendMenu(QMenu* parent);
};

} // namespace octo::ui
