// Model → Connect to Server…: the workbench's runs on an OpenAI-compatible server (vLLM, SGLang,
// TGI, llama.cpp's server, Ollama, or `octoscope-cli serve`). The dialog's choices are remembered
// (URL, model, where the key comes from) but never the key itself: it is read from an environment
// variable or the system keyring (QtKeychain) when connecting, and never reaches settings,
// captures or logs. Connecting (listing the server's models) runs off the GUI thread; then the
// engine host sends every run there (engine/host/remote_runner.h) and the views follow the stream.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

class QWidget;

namespace octo::ui {

class EngineBridge;
class StatusSink;

// What the dialog asks and QSettings keeps (the key excepted).
struct ServerSettings {
    enum class KeySource { None, Environment, Keyring };
    QString url;               // "http://gpu-box:8000" (a trailing /v1 optional)
    QString model;             // the server's model id ("": its first)
    KeySource key_source = KeySource::None;
    QString key_variable;      // KeySource::Environment: the variable's name

    static ServerSettings remembered();
    void remember() const;
};

class ServerController : public QObject {
    Q_OBJECT
public:
    ServerController(QWidget& dialogs, StatusSink& status, EngineBridge& bridge, QObject* parent = nullptr);

    // The dialog (remembered settings filled in; a key typed there is stored in the keyring).
    void showDialog();
    // Connects with these settings (reading the key first); emits connected or failed.
    void connectTo(const ServerSettings& settings);
    void setDialogsEnabled(bool enabled) { dialogs_ = enabled; } // tests
    const QString& lastError() const { return last_error_; }
    // What the connected server serves (GET /v1/models when connecting) and the one runs go to;
    // empty while none is connected.
    const QStringList& servedModels() const { return served_models_; }
    const QString& servedModel() const { return served_model_; }
    // Runs go to the server's model `id` from now on (reconnecting with the remembered settings).
    void switchModel(const QString& id);

signals:
    void connected(const QString& engine, const QString& model);
    void failed(const QString& message);

private:
    void connectWithKey(const ServerSettings& settings, const QString& key);
    void fail(const QString& message);

    QWidget& dialogs_parent_;
    StatusSink& status_;
    EngineBridge& bridge_;
    bool dialogs_ = true;
    QString last_error_;
    QStringList served_models_;
    QString served_model_;
};

// The keyring entry of a server's key: service "octoscope", account the URL.
QString keyring_account(const QString& url);

} // namespace octo::ui
