// The router behind the Router panel (docs/router.md): loaded from the resources and the
// user's corrections, it routes the prompt being typed on a worker thread, one request at a
// time and in order; a result that a newer request or a recorded decision has overtaken is
// dropped. "This route is wrong" records the right label in the user's probe file and refits
// the centroids (the article's rule 3).
#pragma once

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <memory>
#include <mutex>

#include "engine/router/router.h"

namespace octo::ui {

class RouterController : public QObject {
    Q_OBJECT
public:
    explicit RouterController(QObject* parent = nullptr);
    ~RouterController() override; // waits for a routing under way

    // Loads the router; false with the reason in `error` (the previous router stays).
    bool load(const QString& resource_dir, QString* error);
    bool loaded() const { return router_ != nullptr; }
    // Routes `text` off the UI thread: routed(text, decision) follows unless overtaken.
    void route(const QString& text);
    // Drops the results of every request made so far (a recorded decision is shown instead).
    void supersede() { ++generation_; }
    // Records that `text` belongs to `subsystem` in the user's probe file, refits, routes `text` again.
    void correct(const QString& text, int subsystem);
    static QString userProbePath();

signals:
    void routed(const QString& text, const octo::RouteDecision& decision);

private:
    std::shared_ptr<Router> router_;
    std::shared_ptr<std::mutex> router_mutex_ = std::make_shared<std::mutex>();
    quint64 generation_ = 0; // routing requests made; stale results are dropped
    QThreadPool pool_;
};

} // namespace octo::ui
