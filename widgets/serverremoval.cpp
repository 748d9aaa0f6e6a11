#include "widgets/serverremoval.h"

#include "models/enginebridge.h"
#include "models/serverlistmodel.h"
#include "widgets/firstrun.h"

#include <QMessageBox>
#include <QPointer>
#include <QPushButton>

#include <memory>

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
    Target target;
    target.id = serverId;
    target.name = servers->displayName(serverId);
    target.url = server->url;
    // The counts come from the engine's thread; the box opens when they arrive.
    auto connection = std::make_shared<QMetaObject::Connection>();
    QPointer<QWidget> guard(parent);
    *connection = QObject::connect(
        bridge, &EngineBridge::serverUseReady, bridge, [=](qint64 id, int tasks, int live) mutable {
            if (id != target.id)
                return;
            QObject::disconnect(*connection);
            target.tasks = tasks;
            target.live = live;
            if (guard)
                confirm(guard, bridge, target);
        });
    bridge->requestServerUse(serverId);
}

void ServerRemoval::confirm(QWidget *parent, EngineBridge *bridge, const Target &target)
{
    if (target.tasks < 0) {
        QMessageBox::warning(parent,
                             tr("Remove Server"),
                             tr("Eddy cannot read the tasks of %1 from its database, so it removes "
                                "nothing. Check the status bar, then try again.")
                                 .arg(target.name));
        return;
    }
    QStringList paragraphs{
        tr("Remove %1 (%2) from Eddy? Eddy stops talking to it.").arg(target.name, target.url)};
    if (target.tasks > 0) {
        paragraphs << tr("It has %n stored task(s). Kept as history, they stay in their sessions, "
                         "readable and exportable, marked as from a removed server; adding the "
                         "same URL again brings the server back with them.",
                         nullptr,
                         target.tasks);
    }
    if (target.live > 0) {
        paragraphs << tr("Still running on it: %n task(s). Eddy will no longer watch them: "
                         "they are kept as lost, and whatever they compute from now on stays on "
                         "the server.",
                         nullptr,
                         target.live);
    }
    if (FirstRun::isBundledServer(target.url)) {
        paragraphs << tr("This is the CFD server that comes with Eddy. It stops when you quit "
                         "Eddy. At the next start Eddy starts a new one only if no other server "
                         "is configured (start Eddy with --no-local-server to prevent that).");
    }
    auto *box = new QMessageBox(QMessageBox::Question,
                                tr("Remove Server?"),
                                paragraphs.join(QStringLiteral("\n\n")),
                                QMessageBox::NoButton,
                                parent);
    box->setObjectName(QStringLiteral("removeServerConfirm"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *keepTasks = nullptr;
    QPushButton *deleteTasks = nullptr;
    QPushButton *remove = nullptr;
    if (target.tasks > 0) {
        keepTasks = box->addButton(tr("Keep Its Tasks as History"), QMessageBox::AcceptRole);
        keepTasks->setObjectName(QStringLiteral("removeKeepTasks"));
        deleteTasks = box->addButton(tr("Delete Its %n Task(s) Too", nullptr, target.tasks),
                                     QMessageBox::DestructiveRole);
        deleteTasks->setObjectName(QStringLiteral("removeDeleteTasks"));
    } else {
        remove = box->addButton(tr("Remove Server"), QMessageBox::DestructiveRole);
        remove->setObjectName(QStringLiteral("confirmRemove"));
    }
    QPushButton *cancel = box->addButton(tr("Keep Server"), QMessageBox::RejectRole);
    cancel->setObjectName(QStringLiteral("keepServer"));
    // Enter keeps everything stored; deleting takes its own click.
    box->setDefaultButton(keepTasks ? keepTasks : cancel);
    box->setEscapeButton(cancel);
    const qint64 id = target.id;
    QObject::connect(box,
                     &QMessageBox::buttonClicked,
                     bridge,
                     [bridge, id, keepTasks, deleteTasks, remove](QAbstractButton *b) {
                         if (b && b == keepTasks)
                             bridge->removeServer(id, EngineBridge::ServerTasks::KeepAsHistory);
                         else if (b && b == deleteTasks)
                             bridge->removeServer(id, EngineBridge::ServerTasks::Delete);
                         else if (b && b == remove)
                             bridge->removeServer(id);
                     });
    box->open();
}

} // namespace Eddy
