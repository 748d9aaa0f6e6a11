#pragma once

#include "models/sweepreportinput.h"

#include <QCoreApplication>
#include <QString>

namespace Eddy {

// A sweep report that stands on its own: one HTML file with inline CSS (light and dark) and
// inline SVG charts, no script and nothing fetched (a Content-Security-Policy says so), and the
// same text as a PDF through QTextDocument (which draws no SVG: the PDF lists the charts' data
// in the table and leaves the charts to the HTML). Every text from the server or a user is
// escaped. Pure apart from the writes; the PDF needs a QGuiApplication. Any thread for html().
class SweepReport final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::SweepReport)

public:
    enum class Target { Browser, Pdf };

    static QString html(const SweepReportInput &input, Target target = Target::Browser);
    // Writes html() to path (atomically); false with *error saying why.
    static bool writeHtml(const SweepReportInput &input, const QString &path, QString *error);
    // Writes the PDF (A4) to path (atomically); false with *error saying why.
    static bool writePdf(const SweepReportInput &input, const QString &path, QString *error);

    // "2026-12-05 14:03:11 UTC"; empty for 0.
    static QString timeText(qint64 epochMs);
};

} // namespace Eddy
