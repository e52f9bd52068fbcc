// Model → KV Cache: how the loaded model's KV pool stores keys and values — Default (F16 at
// reference precision, as llama.cpp's default cache; F32 at exact precision and on CUDA), F32,
// F16, Q8_0 or Q4_0 (engine/kv/kv_types.h; a model whose heads do not fill blocks of 32 fails to
// open with the quantised ones, saying so, and the previous model stays). Remembered (QSettings "kv_cache"); changing it reopens the model,
// since the pool is allocated once when the model opens. The KV panel shows the types in force.
#pragma once

#include "engine/kv/kv_types.h"
#include "ui/panels/remembered_choice_menu.h"

namespace octo::ui {

class KvCacheMenu : public RememberedChoiceMenu {
    Q_OBJECT
public:
    explicit KvCacheMenu(QMenu* parent);
    KvTypeChoice types() const; // nullopt for Default
};

} // namespace octo::ui
