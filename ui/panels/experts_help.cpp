#include "ui/panels/experts_help.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace octo::ui {

QString experts_help_text() {
    return QCoreApplication::translate(
        "octo::ui::ExpertsHelp",
        "<p><b>Real experts are not the article's subsystems.</b></p>"
        "<p>In a mixture-of-experts model (Mixtral, OLMoE, Qwen-MoE, Qwen3-MoE) the feed-forward block of "
        "every layer is replaced by several small networks, the <i>experts</i>, and a router — one linear "
        "layer — that picks a few of them for each token: softmax over the experts, the most probable "
        "ones kept, their outputs added with the router's weights. That routing is computed, and the "
        "Experts panel shows it as it happened: layers × experts for a token, tokens × experts for one "
        "layer, and how often each expert was chosen.</p>"
        "<ul><li><b>Experts replace the feed-forward block, per layer and per token.</b> Expert 5 of layer 3 "
        "and expert 5 of layer 4 share nothing but a number; a token is routed again in every layer.</li>"
        "<li><b>Attention is not routed.</b> Every head runs for every token; the subsystem map over heads "
        "(rte-a … rte-h) is a separate reading laid over the heads.</li>"
        "<li><b>Nothing trains an expert to handle a topic.</b> Whether experts line up with the eight "
        "subsystems is a question to measure, and on most layers the answer is weak or no.</li></ul>"
        "<p><b>Disabling an expert</b> (octoscope-cli generate --disable-expert LAYER:EXPERT) takes it out of "
        "the router's choice: the next most probable expert runs instead — the model as if that expert did "
        "not exist. Compare the two runs to see what it did for this prompt.</p>");
}

void show_experts_help(QWidget& parent) {
    auto* box = new QMessageBox(QMessageBox::Information, QCoreApplication::translate("octo::ui::ExpertsHelp", "Experts and subsystems"),
                                experts_help_text(), QMessageBox::Close, &parent);
    box->setObjectName(QStringLiteral("expertsHelp"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setModal(false);
    box->show();
}

} // namespace octo::ui
