#include "models/sweepreport.h"

#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>

namespace Eddy {

// The PDF: the report's HTML without charts laid out by QTextDocument and printed through
// QPdfWriter (Qt's PDF engine, the one QPrinter uses), A4 with 15 mm margins.
bool SweepReport::writePdf(const SweepReportInput &input, const QString &path, QString *error)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    {
        QPdfWriter writer(&file);
        writer.setTitle(tr("Sweep %1: %2").arg(input.sweepNumber).arg(input.tool));
        writer.setCreator(QStringLiteral("Eddy"));
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                         QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
        QTextDocument doc;
        doc.setDefaultStyleSheet(QStringLiteral(
            "body{font-size:9pt;} h1{font-size:15pt;} h2{font-size:12pt;} h3{font-size:10pt;}"
            "th{background-color:#f1f3f5;} .muted,.meta{color:#5c6166;} td,th{padding:2px;}"));
        doc.setHtml(html(input, Target::Pdf));
        doc.print(&writer);
    }
    if (!file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

} // namespace Eddy
