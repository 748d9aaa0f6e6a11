// eddyctl: the scripting face of Eddy over the same core and database as the GUI.
#include "app/cli/ctl.h"
#include "app/keychain/vault.h"
#include "app/net/httpclient.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <memory>

int main(int argc, char *argv[])
{
    // A PDF (eddyctl report --pdf) lays out text with fonts, which needs a QGuiApplication; on
    // the offscreen platform unless told otherwise, since eddyctl never opens a window.
    bool needsGui = false;
    for (int i = 1; i < argc; ++i)
        needsGui = needsGui || std::strncmp(argv[i], "--pdf", 5) == 0;
    if (needsGui && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> guiOrCore = needsGui ? std::make_unique<QGuiApplication>(argc, argv)
                                                           : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication &app = *guiOrCore;
    QCoreApplication::setOrganizationName(QStringLiteral("Eddy"));
    QCoreApplication::setApplicationName(QStringLiteral("eddy"));
    QCoreApplication::setApplicationVersion(QStringLiteral(EDDY_VERSION));
    // Info lines of the core are for the GUI's log; a script sees warnings only unless it asks
    // (QT_LOGGING_RULES="eddy.*.info=true").
    if (qEnvironmentVariableIsEmpty("QT_LOGGING_RULES"))
        QLoggingCategory::setFilterRules(QStringLiteral("eddy.*.info=false\neddy.*.debug=false"));
    Eddy::Net::initGlobal();
    // Server tokens and OAuth tokens: in the Secret Service, else (a headless login node) the
    // owner-only token file, said once on stderr; the database keeps only their references.
    Eddy::Keychain::Vault vault(Eddy::Keychain::Vault::defaultFile(), [](const QString &message) {
        std::fprintf(stderr, "eddyctl: %s\n", qPrintable(message));
    });
    Eddy::setSecretVault(&vault);
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    Eddy::Cli::Ctl ctl(args);
    int code = 0;
    QObject::connect(&ctl, &Eddy::Cli::Ctl::done, &app, [&code](int exitCode) {
        code = exitCode;
        QCoreApplication::exit(exitCode);
    });
    QTimer::singleShot(0, &ctl, &Eddy::Cli::Ctl::start);
    app.exec();
    Eddy::setSecretVault(nullptr);
    return code;
}
