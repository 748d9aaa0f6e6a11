#pragma once

#include <QString>

class QCoreApplication;

namespace Eddy {

// Installs Eddy's translations on `app`: the English one always, as the base, so that %n plurals
// read "1 case" / "2 cases" whatever the locale (also C/POSIX); then the translation for `lang`
// ("de", "en") or, when empty, for the system locale on top, and Qt's own for that locale.
void installUiTranslations(QCoreApplication *app, const QString &lang);

} // namespace Eddy
