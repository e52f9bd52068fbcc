// Model: Connect to Server…, Calibrate Head Map… and Calibrate Experts…, Measure the Article's
// Claims, and the Backend and KV Cache submenus (backend_menu.h, kv_cache_menu.h; a new choice
// reopens the loaded model file).
#pragma once

#include <QMenu>

namespace octo::ui {

class BackendMenu;
class KvCacheMenu;
class Workbench;

class ModelMenu : public QMenu {
    Q_OBJECT
public:
    ModelMenu(Workbench& bench, QWidget* parent);
    BackendMenu* backend() const { return backend_; }
    KvCacheMenu* kvCache() const { return kv_cache_; }

private:
    BackendMenu* backend_;
    KvCacheMenu* kv_cache_;
};

} // namespace octo::ui
