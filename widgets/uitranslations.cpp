#include "widgets/uitranslations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace Eddy {

void installUiTranslations(QCoreApplication *app, const QString &lang)
{
    const QLocale locale = lang.isEmpty() ? QLocale::system() : QLocale(lang);
    // Installed first, searched last: English fills in whatever the locale's translation lacks.
    auto *english = new QTranslator(app);
    if (english->load(QStringLiteral(":/i18n/eddy_en.qm")))
        QCoreApplication::installTranslator(english);
    else
        delete english;
    if (locale.language() != QLocale::English) {
        auto *eddy = new QTranslator(app);
        if (eddy->load(
                locale, QStringLiteral("eddy"), QStringLiteral("_"), QStringLiteral(":/i18n")))
            QCoreApplication::installTranslator(eddy);
        else
            delete eddy;
    }
    auto *qt = new QTranslator(app);
    if (qt->load(locale,
                 QStringLiteral("qtbase"),
                 QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
}

} // namespace Eddy
