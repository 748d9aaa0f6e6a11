#include "widgets/sweepfile.h"

#include "app/vocab/sweepspec.h"
#include "widgets/filedialog.h"
#include "widgets/schemaform.h"
#include "widgets/sweepeditor.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>
#include <QSaveFile>
#include <QSet>
#include <QSettings>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cmath>

namespace Eddy {

using json = nlohmann::json;

namespace {

QString number(double d)
{
    return QString::number(d, 'g', 12);
}

QString listText(const std::vector<json> &values)
{
    QStringList parts;
    for (const json &v : values) {
        if (v.is_string())
            parts << QString::fromStdString(v.get<std::string>());
        else if (v.is_number_float())
            parts << number(v.get<double>());
        else
            parts << QString::fromStdString(v.dump());
    }
    return parts.join(QLatin1String(", "));
}

void showError(QWidget *parent, const QString &title, const QString &text)
{
    auto *box = new QMessageBox(QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box->setObjectName(QStringLiteral("sweepFileError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QFileDialog *fileDialog(QWidget *parent, const QString &title)
{
    QFileDialog *dialog = newFileDialog(parent, title, QStringLiteral("sweepFileDialog"),
                                        {SweepFile::tr("Sweep specs (*.json)"), SweepFile::tr("All files (*)")},
                                        QStringLiteral("sweepFile/dir"));
    dialog->setDefaultSuffix(QStringLiteral("json"));
    return dialog;
}

} // namespace

bool SweepFile::load(SweepEditor *editor, const QByteArray &text, QString *error)
{
    QString why;
    const auto spec = Monitor::SweepSpec::fromText(text, &why);
    if (!spec) {
        *error = tr("This is not a sweep spec Eddy can use: %1").arg(why);
        return false;
    }
    if (!editor->setCurrentTool(spec->tool)) {
        *error = tr("The chosen server does not offer the tool \"%1\" that the sweep runs. Choose "
                    "the server that offers it in the editor, then open the file again.")
                     .arg(spec->tool);
        return false;
    }
    // The same check eddyctl's submit makes, key by key. Nothing the form cannot show is
    // replaced by a default in silence: a value of the wrong type is left out (the field shows
    // "not set" or its default) and its problem keeps Submit disabled until the field is edited.
    const QList<Monitor::SweepExpander::Problem> problems
        = Monitor::SweepExpander::checkArguments(*spec, editor->toolSchema());
    json fixed = spec->fixed;
    QSet<QString> unknownVaried;
    for (const Monitor::SweepExpander::Problem &p : problems) {
        fixed.erase(p.key.toStdString());
        if (p.argument != p.key)
            unknownVaried.insert(p.key);
    }
    editor->clearVaried();
    editor->setSweepDescription(spec->description);
    editor->form()->setValue(fixed);
    std::vector<Monitor::SweepAxis> axes; // in the file's order: the rows, the preview's columns
    for (const QString &name : spec->variedOrder) {
        for (const Monitor::SweepAxis &axis : spec->axes) {
            if (axis.name == name && !unknownVaried.contains(name))
                axes.push_back(axis);
        }
    }
    for (const Monitor::SweepAxis &axis : axes) {
        switch (axis.kind) {
        case Monitor::SweepAxis::Kind::List:
            editor->setVaried(axis.name, SweepEditor::VaryKind::List, listText(axis.values));
            break;
        case Monitor::SweepAxis::Kind::Range:
            editor->setVaried(
                axis.name,
                SweepEditor::VaryKind::Range,
                QStringList{number(axis.from), number(axis.to), number(axis.step)}.join(
                    QLatin1String(", ")));
            break;
        case Monitor::SweepAxis::Kind::Interval:
            editor->setVaried(
                axis.name,
                SweepEditor::VaryKind::Interval,
                QStringList{number(axis.min), number(axis.max)}.join(QLatin1String(", ")));
            break;
        }
    }
    editor->setLatinHypercube(spec->mode == Monitor::SweepSpec::Mode::LatinHypercube,
                              spec->samples > 0 ? spec->samples : 8,
                              spec->seed);
    editor->setConcurrency(spec->concurrency);
    editor->setFileProblems(problems);
    if (!problems.isEmpty()) {
        QStringList lines;
        for (const Monitor::SweepExpander::Problem &p : problems)
            lines << QStringLiteral("• ") + p.text;
        *error = tr("The tool \"%1\" cannot take these values, so Eddy left them out of the editor "
                    "and will not submit the sweep until each is fixed there (or in the file):\n%2")
                     .arg(spec->tool, lines.join(QLatin1Char('\n')));
        return false;
    }
    if (editor->updatePreview() <= 0) {
        *error = tr("The sweep does not fit the tool \"%1\": %2")
                     .arg(spec->tool, editor->problemText());
        return false;
    }
    return true;
}

QByteArray SweepFile::save(const SweepEditor *editor, QString *error)
{
    QStringList problems;
    const nlohmann::ordered_json s = editor->spec(&problems);
    if (s.is_null()) {
        *error = tr("Fix the sweep first: %1").arg(problems.join(QLatin1Char(' ')));
        return {};
    }
    return QByteArray::fromStdString(s.dump(2)) + '\n';
}

void SweepFile::askToOpen(SweepEditor *editor, QWidget *parent)
{
    QFileDialog *dialog = fileDialog(parent, tr("Open Sweep"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    QObject::connect(
        dialog, &QFileDialog::fileSelected, editor, [editor, parent](const QString &path) {
            QSettings().setValue(QStringLiteral("sweepFile/dir"), QFileInfo(path).absolutePath());
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly)) {
                showError(parent,
                          tr("Open Sweep"),
                          tr("Eddy cannot read %1: %2")
                              .arg(QDir::toNativeSeparators(path), file.errorString()));
                return;
            }
            QString error;
            if (!load(editor, file.readAll(), &error))
                showError(parent,
                          tr("Open Sweep"),
                          tr("%1 was not opened completely.\n\n%2")
                              .arg(QFileInfo(path).fileName(), error));
        });
    dialog->open();
}

void SweepFile::askToSave(SweepEditor *editor, QWidget *parent)
{
    QString error;
    const QByteArray text = save(editor, &error);
    if (text.isEmpty()) {
        showError(parent, tr("Save Sweep"), error);
        return;
    }
    QFileDialog *dialog = fileDialog(parent, tr("Save Sweep"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    QObject::connect(
        dialog, &QFileDialog::fileSelected, parent, [text, parent, editor = QPointer<SweepEditor>(editor)](const QString &path) {
            QSettings().setValue(QStringLiteral("sweepFile/dir"), QFileInfo(path).absolutePath());
            QSaveFile file(path);
            if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size()
                || !file.commit()) {
                showError(parent,
                          tr("Save Sweep"),
                          tr("Eddy cannot write %1: %2")
                              .arg(QDir::toNativeSeparators(path), file.errorString()));
                return;
            }
            if (editor)
                editor->showNotice(tr("Saved to %1").arg(QFileInfo(path).fileName()));
        });
    dialog->open();
}

} // namespace Eddy
