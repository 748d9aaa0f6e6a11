#include "widgets/serverremoval.h"

#include "models/enginebridge.h"
#include "models/serverlistmodel.h"

#include <QMessageBox>
#include <QPushButton>

namespace Eddy {

void ServerRemoval::ask(QWidget *parent,
                        EngineBridge *bridge,
                        const ServerListModel *servers,
                        qint64 serverId)
{
    const Store::ServerRecord *server = servers->server(serverId);
    if (!server) {
        QMessageBox::information(
            parent, tr("Remove Server"), tr("Select a server in the list first."));
        return;
    }
    const QString name = servers->displayName(serverId);
    auto *box
        = new QMessageBox(QMessageBox::Question,
                          tr("Remove Server?"),
                          tr("Remove %1 (%2) from Eddy?\n\nEddy stops talking to it. A server "
                             "that has stored tasks is kept, with every task and result; "
                             "rename it instead.")
                              .arg(name, server->url),
                          QMessageBox::NoButton,
                          parent);
    box->setObjectName(QStringLiteral("removeServerConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *remove = box->addButton(tr("Remove Server"), QMessageBox::DestructiveRole);
    remove->setObjectName(QStringLiteral("confirmRemove"));
    QPushButton *keep = box->addButton(tr("Keep It"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("keepServer"));
    box->setDefaultButton(keep);
    box->setEscapeButton(keep);
    QObject::connect(
        box, &QMessageBox::buttonClicked, bridge, [bridge, remove, serverId](QAbstractButton *b) {
            if (b == remove)
                bridge->removeServer(serverId);
        });
    box->open();
}

} // namespace Eddy
