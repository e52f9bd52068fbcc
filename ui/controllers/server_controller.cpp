#include "ui/controllers/server_controller.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QRadioButton>
#include <QSettings>
#include <QPushButton>
#include <QThreadPool>
#include <QVBoxLayout>

#include <memory>

#include <qt6keychain/keychain.h>

#include "engine/remote/openai_runner.h"
#include "ui/controllers/engine_bridge.h"
#include "ui/support/window_services.h"

namespace octo::ui {

namespace {

constexpr const char* kService = "octoscope";

QString text(const std::string& s) { return QString::fromStdString(s); }

} // namespace

QString keyring_account(const QString& url) { return QStringLiteral("server ") + url; }

ServerSettings ServerSettings::remembered() {
    QSettings s;
    ServerSettings out;
    out.url = s.value("server/url").toString();
    out.model = s.value("server/model").toString();
    const QString source = s.value("server/keySource").toString();
    out.key_source = source == QLatin1String("environment") ? KeySource::Environment
                     : source == QLatin1String("keyring")   ? KeySource::Keyring
                                                            : KeySource::None;
    out.key_variable = s.value("server/keyVariable").toString();
    return out;
}

void ServerSettings::remember() const {
    QSettings s;
    s.setValue("server/url", url);
    s.setValue("server/model", model);
    s.setValue("server/keySource", key_source == KeySource::Environment ? QStringLiteral("environment")
                                   : key_source == KeySource::Keyring   ? QStringLiteral("keyring")
                                                                        : QStringLiteral("none"));
    s.setValue("server/keyVariable", key_variable);
}

ServerController::ServerController(QWidget& dialogs, StatusSink& status, EngineBridge& bridge, QObject* parent)
    : QObject(parent), dialogs_parent_(dialogs), status_(status), bridge_(bridge) {}

void ServerController::showDialog() {
    ServerSettings settings = ServerSettings::remembered();
    QDialog dialog(&dialogs_parent_);
    dialog.setWindowTitle(tr("Connect to Server"));
    auto* url = new QLineEdit(settings.url, &dialog);
    url->setPlaceholderText(QStringLiteral("http://gpu-box:8000"));
    auto* model = new QLineEdit(settings.model, &dialog);
    model->setPlaceholderText(tr("the server's first model"));
    auto* none = new QRadioButton(tr("No key"), &dialog);
    auto* env = new QRadioButton(tr("Environment variable"), &dialog);
    auto* variable = new QLineEdit(settings.key_variable, &dialog);
    variable->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
    auto* keyring = new QRadioButton(tr("System keyring"), &dialog);
    auto* key = new QLineEdit(&dialog);
    key->setEchoMode(QLineEdit::Password);
    key->setPlaceholderText(tr("type it to store it in the keyring; empty: the stored one"));
    (settings.key_source == ServerSettings::KeySource::Environment ? env
     : settings.key_source == ServerSettings::KeySource::Keyring   ? keyring
                                                                  : none)
        ->setChecked(true);
    auto* form = new QFormLayout;
    form->addRow(tr("Server URL"), url);
    form->addRow(tr("Model"), model);
    form->addRow(none);
    form->addRow(env, variable);
    form->addRow(keyring, key);
    auto* note = new QLabel(tr("The key is never saved in the settings or in captures. Any OpenAI-compatible server works; "
                               "an Octoscope server (octoscope-cli serve) also gives every measurement."),
                            &dialog);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    dialog.resize(520, dialog.sizeHint().height());
    if (dialog.exec() != QDialog::Accepted) return;

    settings.url = url->text().trimmed();
    settings.model = model->text().trimmed();
    settings.key_variable = variable->text().trimmed();
    settings.key_source = env->isChecked()       ? ServerSettings::KeySource::Environment
                          : keyring->isChecked() ? ServerSettings::KeySource::Keyring
                                                 : ServerSettings::KeySource::None;
    settings.remember();
    if (settings.key_source == ServerSettings::KeySource::Keyring && !key->text().isEmpty()) {
        auto* job = new QKeychain::WritePasswordJob(QString::fromLatin1(kService), this);
        job->setKey(keyring_account(settings.url));
        job->setTextData(key->text());
        connect(job, &QKeychain::Job::finished, this, [this, settings](QKeychain::Job* j) {
            if (j->error() != QKeychain::NoError) return fail(tr("Cannot store the key in the system keyring: %1").arg(j->errorString()));
            connectTo(settings);
        });
        job->start();
        return;
    }
    connectTo(settings);
}

void ServerController::connectTo(const ServerSettings& settings) {
    switch (settings.key_source) {
    case ServerSettings::KeySource::None: return connectWithKey(settings, {});
    case ServerSettings::KeySource::Environment: {
        const QByteArray name = settings.key_variable.toLocal8Bit();
        if (name.isEmpty() || qgetenv(name.constData()).isEmpty()) {
            return fail(tr("The environment variable %1 holding the server's key is not set.").arg(settings.key_variable));
        }
        return connectWithKey(settings, QString::fromLocal8Bit(qgetenv(name.constData())));
    }
    case ServerSettings::KeySource::Keyring: {
        auto* job = new QKeychain::ReadPasswordJob(QString::fromLatin1(kService), this);
        job->setKey(keyring_account(settings.url));
        connect(job, &QKeychain::Job::finished, this, [this, settings](QKeychain::Job* j) {
            if (j->error() != QKeychain::NoError) return fail(tr("Cannot read the server's key from the system keyring: %1").arg(j->errorString()));
            connectWithKey(settings, static_cast<QKeychain::ReadPasswordJob*>(j)->textData());
        });
        job->start();
        return;
    }
    }
}

void ServerController::connectWithKey(const ServerSettings& settings, const QString& key) {
    status_.showMessage(tr("Connecting to %1…").arg(settings.url));
    QPointer<ServerController> self(this);
    // Listing the models is a network round trip: off the GUI thread, the answer queued back.
    QThreadPool::globalInstance()->start([self, settings, key] {
        auto client = remote::RemoteClient::create({settings.url.toStdString(), key.toStdString()});
        std::shared_ptr<RemoteRunner> runner;
        QString error;
        QStringList ids;
        if (!client) {
            error = text(client.error().message);
        } else if (auto models = client->models(); !models) {
            error = text(models.error().message);
        } else {
            const remote::RemoteModel* chosen = nullptr;
            for (const remote::RemoteModel& m : models.value()) {
                ids << text(m.id);
                if (!chosen && (settings.model.isEmpty() || text(m.id) == settings.model)) chosen = &m;
            }
            if (!chosen) {
                error = settings.model.isEmpty() ? tr("%1 serves no model.").arg(settings.url)
                                                 : tr("%1 does not serve %2 (it serves: %3).").arg(settings.url, settings.model, ids.join(QStringLiteral(", ")));
            } else {
                runner = std::make_shared<remote::OpenAiRunner>(std::move(client.value()), *chosen);
            }
        }
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, runner, error, ids] {
                if (!self) return;
                if (!runner) return self->fail(tr("Cannot connect: %1").arg(error));
                const ModelInfo& info = runner->info();
                self->served_models_ = ids;
                self->served_model_ = text(info.engine->model);
                self->bridge_.connectServer(runner);
                const QString engine = text(info.path), model = text(info.engine->model);
                self->status_.showMessage(
                    info.engine->octoscope ? tr("Connected to %1 (%2, an Octoscope server): measurements, head map and the pool's "
                                                                     "totals come from it; attention weights stay on the server").arg(engine, model)
                                           : tr("Connected to %1 (%2): text, log-probabilities and timing; the views that need "
                                                "the model's internals say so").arg(engine, model),
                    15000);
                emit self->connected(engine, model);
            },
            Qt::QueuedConnection);
    });
}

void ServerController::switchModel(const QString& id) {
    ServerSettings settings = ServerSettings::remembered();
    settings.model = id;
    settings.remember();
    connectTo(settings);
}

void ServerController::fail(const QString& message) {
    last_error_ = message;
    status_.showMessage(message, 15000);
    if (dialogs_) QMessageBox::warning(&dialogs_parent_, tr("Connect to Server"), message);
    emit failed(message);
}

} // namespace octo::ui
