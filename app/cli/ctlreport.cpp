// eddyctl report: the sweep report the window's File > Export Sweep Report... writes.
#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

#include "models/sweepreport.h"
#include "models/sweepreportreader.h"

#include <QGuiApplication>
#include <QTranslator>

namespace Eddy::Cli {

void Ctl::cmdReport()
{
    static const QString usageText = QStringLiteral("usage: eddyctl report SWEEP [-o FILE] [--pdf FILE] [--lang de|en]");
    QString html = m_output;
    QStringList rest = m_args.mid(1);
    for (qsizetype i = 0; i < rest.size(); ++i) {
        if (rest[i] == QLatin1String("-o")) {
            if (i + 1 >= rest.size())
                return fail(QStringLiteral("-o needs a file name."), Usage);
            html = rest[i + 1];
            rest.remove(i, 2);
            --i;
        }
    }
    if (rest.size() != 1)
        return fail(usageText, Usage);
    bool ok = false;
    const qint64 sweep = rest[0].toLongLong(&ok);
    if (!ok || sweep <= 0)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit (eddyctl tasks "
                                   "--json shows each task's sweep)."),
                    Usage);
    if (!m_pdf.isEmpty() && !qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return fail(QStringLiteral("--pdf needs Qt's GUI library, which did not start; write the HTML "
                                   "with -o FILE and print it from a browser."));
    if (!m_lang.isEmpty() && m_lang != QLatin1String("en")) {
        // The window's translations, built in: the report reads as the window would in LANG.
        auto *translator = new QTranslator(this);
        if (!translator->load(QStringLiteral(":/i18n/eddy_%1.qm").arg(m_lang)))
            return fail(QStringLiteral("there is no %1 translation of the report; --lang takes de or en.").arg(m_lang), Usage);
        QCoreApplication::installTranslator(translator);
    }
    if (!openEngine(false))
        return;
    const auto input = SweepReportReader::read(m_engine, sweep);
    if (!input)
        return fail(QStringLiteral("there is no sweep %1 in %2; eddyctl tasks --json shows each task's sweep.")
                        .arg(sweep)
                        .arg(m_db));
    QString error;
    if (!html.isEmpty() && !SweepReport::writeHtml(*input, html, &error))
        return fail(error + QStringLiteral("; choose another file with -o FILE."));
    if (!m_pdf.isEmpty() && !SweepReport::writePdf(*input, m_pdf, &error))
        return fail(error + QStringLiteral("; choose another file with --pdf FILE."));
    if (html.isEmpty() && m_pdf.isEmpty())
        m_out << SweepReport::html(*input);
    else
        m_err << QStringLiteral("sweep %1: %2 case(s) reported").arg(sweep).arg(input->cases.size()) << Qt::endl;
    finish(Ok);
}

} // namespace Eddy::Cli
