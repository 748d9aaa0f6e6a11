#include "widgets/schemaform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleValidator>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>

#include <climits>
#include <cmath>

namespace Eddy {

namespace {

using json = nlohmann::json;
using Kind = SchemaField::Kind;

QString num(double d)
{
    return QString::number(d, 'g', 12);
}

QString valueText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_float())
        return num(v.get<double>());
    if (v.is_null())
        return {};
    return QString::fromStdString(v.dump());
}

// Numbers accept both "1.5e-3" and the user's locale ("1,5e-3"): engineers type either.
std::optional<double> parseNumber(QString text)
{
    text = text.trimmed();
    bool ok = false;
    double d = QLocale::c().toDouble(text, &ok);
    if (!ok)
        d = QLocale().toDouble(text, &ok);
    if (!ok || !std::isfinite(d))
        return std::nullopt;
    return d;
}

json numberJson(double d, bool integral)
{
    if (integral)
        return json(static_cast<long long>(std::llround(d)));
    return json(d);
}

QString boundsHint(const SchemaField &f)
{
    const QString lo = f.minimum ? num(*f.minimum) : QString();
    const QString hi = f.maximum ? num(*f.maximum) : QString();
    if (!lo.isEmpty() && !hi.isEmpty())
        return SchemaForm::tr("%1 … %2").arg(lo, hi);
    if (!lo.isEmpty())
        return SchemaForm::tr("≥ %1").arg(lo);
    if (!hi.isEmpty())
        return SchemaForm::tr("≤ %1").arg(hi);
    return {};
}

// Parses one comma-separated item of a primitive list.
json parseItem(Kind kind, const QString &text, QString &problem)
{
    switch (kind) {
    case Kind::Number:
    case Kind::Integer: {
        auto d = parseNumber(text);
        if (!d) {
            problem = SchemaForm::tr("\"%1\" is not a number").arg(text);
            return json();
        }
        return numberJson(*d, kind == Kind::Integer && std::floor(*d) == *d);
    }
    case Kind::Boolean: {
        const QString t = text.toLower();
        if (t == QLatin1String("true") || t == QLatin1String("yes") || t == QLatin1String("1"))
            return true;
        if (t == QLatin1String("false") || t == QLatin1String("no") || t == QLatin1String("0"))
            return false;
        problem = SchemaForm::tr("\"%1\" is not true or false").arg(text);
        return json();
    }
    default:
        return text.toStdString();
    }
}

} // namespace

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_layout->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    m_layout->setRowWrapPolicy(QFormLayout::DontWrapRows);
}

SchemaForm::~SchemaForm() = default;

void SchemaForm::setSchema(const nlohmann::json &schema)
{
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
    m_entries.clear();
    m_root = SchemaField::fromSchema(schema);

    std::vector<SchemaField> fields;
    const bool noProperties = schema.is_object() && schema.value("type", json()) == json("object")
                              && !schema.value("properties", json()).is_object()
                                     ? true
                                     : schema.is_object() && schema.value("properties", json()).is_object()
                                           && schema["properties"].empty();
    // An object without properties is how tools say "no arguments"; unless it explicitly allows
    // arbitrary keys, a JSON editor there would only invite typos.
    if (noProperties && schema.value("additionalProperties", json()) != json(true)) {
        // nothing to edit
    } else if (m_root.kind == Kind::Object) {
        fields = m_root.children;
    } else if (!schema.is_null()) {
        // Not an object schema: offer the whole value as JSON rather than nothing.
        SchemaField f = m_root;
        f.kind = Kind::Json;
        f.title = tr("Value");
        fields.push_back(f);
    }
    for (auto &f : fields) {
        auto entry = std::make_unique<Entry>();
        entry->field = std::move(f);
        buildEntry(*entry);
        m_entries.push_back(std::move(entry));
    }
    if (m_entries.empty()) {
        auto *none = new QLabel(tr("This tool takes no arguments."), this);
        none->setEnabled(false);
        m_layout->addRow(none);
    }
}

void SchemaForm::buildEntry(Entry &e)
{
    const SchemaField &f = e.field;
    auto *cell = new QWidget(this);
    // The cell spans the field column (the layout grows only expanding fields), so that the
    // description below the editor wraps at the form's width, not at a spin box's.
    cell->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    auto *box = new QVBoxLayout(cell);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(2);
    const auto changed = [this, name = QString::fromStdString(f.name)] {
        Q_EMIT valueChanged();
        Q_EMIT fieldEdited(name);
    };

    switch (f.kind) {
    case Kind::String: {
        auto *edit = new QLineEdit(cell);
        if (f.maxLength)
            edit->setMaxLength(*f.maxLength);
        if (f.format == QLatin1String("date"))
            edit->setPlaceholderText(tr("YYYY-MM-DD"));
        else if (f.format == QLatin1String("date-time"))
            edit->setPlaceholderText(tr("YYYY-MM-DDThh:mm:ssZ"));
        else if (f.format == QLatin1String("email"))
            edit->setPlaceholderText(tr("name@example.com"));
        else if (f.format == QLatin1String("uri"))
            edit->setPlaceholderText(tr("https://…"));
        else if (!f.pattern.isEmpty())
            edit->setPlaceholderText(tr("pattern: %1").arg(f.pattern));
        connect(edit, &QLineEdit::textChanged, this, changed);
        e.editor = edit;
        e.read = [edit, req = f.required](QString &) -> json {
            // An empty optional string is "not given", which is what a user means by leaving it.
            if (edit->text().isEmpty() && !req)
                return json();
            if (edit->text().isEmpty())
                return json();
            return edit->text().toStdString();
        };
        e.write = [edit](const json &v) { edit->setText(valueText(v)); };
        break;
    }
    case Kind::Integer:
        if (f.minimum && f.maximum && (f.required || f.hasDefault()) && *f.minimum >= INT_MIN
            && *f.maximum <= INT_MAX) {
            auto *spin = new QSpinBox(cell);
            const int lowest = static_cast<int>(std::ceil(*f.minimum + (f.exclusiveMinimum ? 1 : 0)));
            // A required number without a default starts "not set", never at its minimum: a
            // sweep is not run at grid 8 because nobody typed a grid.
            const bool unset = !f.hasDefault() && lowest > INT_MIN;
            spin->setRange(unset ? lowest - 1 : lowest,
                           static_cast<int>(std::floor(*f.maximum - (f.exclusiveMaximum ? 1 : 0))));
            if (unset) {
                spin->setSpecialValueText(tr("not set"));
                spin->setValue(spin->minimum());
            }
            spin->setAccelerated(true);
            spin->setToolTip(boundsHint(f));
            connect(spin, &QSpinBox::valueChanged, this, changed);
            e.editor = spin;
            e.read = [spin, unset](QString &) -> json {
                if (unset && spin->value() == spin->minimum())
                    return json();
                return spin->value();
            };
            e.write = [spin, unset](const json &v) {
                if (v.is_number())
                    spin->setValue(static_cast<int>(v.get<double>()));
                else if (unset)
                    spin->setValue(spin->minimum());
            };
            break;
        }
        [[fallthrough]];
    case Kind::Number: {
        auto *edit = new QLineEdit(cell);
        const bool integral = f.kind == Kind::Integer;
        if (integral) {
            edit->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("[-+]?[0-9]*")), edit));
        } else {
            // Scientific notation matters: tolerances are written 1e-6.
            edit->setValidator(new QRegularExpressionValidator(
                QRegularExpression(QStringLiteral("[-+]?[0-9]*[.,]?[0-9]*([eE][-+]?[0-9]*)?")), edit));
        }
        const QString hint = boundsHint(f);
        edit->setPlaceholderText(hint.isEmpty() ? (integral ? tr("whole number") : tr("number")) : hint);
        connect(edit, &QLineEdit::textChanged, this, changed);
        e.editor = edit;
        e.read = [edit, integral](QString &problem) -> json {
            const QString t = edit->text().trimmed();
            if (t.isEmpty())
                return json();
            auto d = parseNumber(t);
            if (!d) {
                problem = tr("\"%1\" is not a number.").arg(t);
                return json();
            }
            if (integral && std::floor(*d) != *d) {
                problem = tr("\"%1\" is not a whole number.").arg(t);
                return json();
            }
            return numberJson(*d, integral);
        };
        e.write = [edit](const json &v) { edit->setText(valueText(v)); };
        break;
    }
    case Kind::Boolean: {
        auto *check = new QCheckBox(cell);
        check->setAccessibleDescription(f.description); // shown wrapped below, as for every field
        connect(check, &QCheckBox::toggled, this, [this, &e] {
            e.touched = true;
            Q_EMIT valueChanged();
            Q_EMIT fieldEdited(QString::fromStdString(e.field.name));
        });
        e.editor = check;
        e.read = [check, &e](QString &) -> json {
            if (!e.field.required && !e.field.hasDefault() && !e.touched)
                return json();
            return check->isChecked();
        };
        e.write = [check, &e](const json &v) {
            const QSignalBlocker block(check);
            check->setChecked(v.is_boolean() && v.get<bool>());
            e.touched = v.is_boolean();
        };
        break;
    }
    case Kind::Enum: {
        auto *combo = new QComboBox(cell);
        const bool allowUnset = !f.required && !f.hasDefault();
        if (allowUnset)
            combo->addItem(tr("(not set)"), -1);
        for (size_t i = 0; i < f.options.size(); ++i)
            combo->addItem(f.optionTitle(f.options[i].value), static_cast<int>(i));
        connect(combo, &QComboBox::currentIndexChanged, this, changed);
        e.editor = combo;
        e.read = [combo, &e](QString &) -> json {
            const int i = combo->currentData().toInt();
            if (i < 0 || i >= static_cast<int>(e.field.options.size()))
                return json();
            return e.field.options[static_cast<size_t>(i)].value;
        };
        e.write = [combo, &e](const json &v) {
            for (size_t i = 0; i < e.field.options.size(); ++i) {
                if (e.field.options[i].value == v) {
                    combo->setCurrentIndex(combo->findData(static_cast<int>(i)));
                    return;
                }
            }
            combo->setCurrentIndex(0);
        };
        break;
    }
    case Kind::Array:
        if (f.itemKind == Kind::Enum) {
            auto *list = new QListWidget(cell);
            for (const auto &o : f.options) {
                auto *item = new QListWidgetItem(f.optionTitle(o.value), list);
                item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
                item->setCheckState(Qt::Unchecked);
            }
            list->setMaximumHeight(std::min(160, 24 * static_cast<int>(f.options.size()) + 8));
            connect(list, &QListWidget::itemChanged, this, changed);
            e.editor = list;
            e.read = [list, &e](QString &) -> json {
                json out = json::array();
                for (int i = 0; i < list->count(); ++i) {
                    if (list->item(i)->checkState() == Qt::Checked)
                        out.push_back(e.field.options[static_cast<size_t>(i)].value);
                }
                if (out.empty() && !e.field.required)
                    return json();
                return out;
            };
            e.write = [list, &e](const json &v) {
                for (int i = 0; i < list->count(); ++i) {
                    bool on = false;
                    if (v.is_array()) {
                        for (const auto &x : v)
                            on = on || x == e.field.options[static_cast<size_t>(i)].value;
                    }
                    list->item(i)->setCheckState(on ? Qt::Checked : Qt::Unchecked);
                }
            };
        } else {
            auto *edit = new QLineEdit(cell);
            edit->setPlaceholderText(tr("comma-separated, e.g. %1")
                                         .arg(f.itemKind == Kind::String ? tr("a, b, c") : tr("1, 2, 3")));
            connect(edit, &QLineEdit::textChanged, this, changed);
            e.editor = edit;
            e.read = [edit, itemKind = f.itemKind](QString &problem) -> json {
                const QString t = edit->text().trimmed();
                if (t.isEmpty())
                    return json();
                json out = json::array();
                // Numbers may use a decimal comma only when items are separated by "; ".
                const QChar sep = t.contains(QLatin1Char(';')) ? QLatin1Char(';') : QLatin1Char(',');
                for (const QString &part : t.split(sep)) {
                    QString itemProblem;
                    json item = parseItem(itemKind, part.trimmed(), itemProblem);
                    if (!itemProblem.isEmpty()) {
                        problem = itemProblem;
                        return json();
                    }
                    out.push_back(item);
                }
                return out;
            };
            e.write = [edit](const json &v) {
                QStringList parts;
                if (v.is_array()) {
                    for (const auto &x : v)
                        parts << valueText(x);
                }
                edit->setText(parts.join(QStringLiteral(", ")));
            };
        }
        break;
    case Kind::Object: {
        auto *group = new QGroupBox(cell);
        auto *inner = new QVBoxLayout(group);
        inner->setContentsMargins(8, 4, 8, 4);
        auto *form = new SchemaForm(group);
        form->setSchema(f.schema);
        inner->addWidget(form);
        connect(form, &SchemaForm::valueChanged, this, changed);
        e.editor = group;
        e.nested = form;
        e.read = [form, &e](QString &) -> json {
            json v = form->value();
            if (v.empty() && !e.field.required)
                return json();
            return v;
        };
        e.write = [form](const json &v) { form->setValue(v.is_object() ? v : json::object()); };
        break;
    }
    case Kind::Json: {
        auto *edit = new QPlainTextEdit(cell);
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        edit->setPlaceholderText(tr("JSON, e.g. {\"key\": 1}"));
        edit->setTabChangesFocus(true);
        edit->setMaximumHeight(120);
        connect(edit, &QPlainTextEdit::textChanged, this, changed);
        e.editor = edit;
        e.read = [edit](QString &problem) -> json {
            const std::string text = edit->toPlainText().trimmed().toStdString();
            if (text.empty())
                return json();
            json v = json::parse(text, nullptr, false);
            if (v.is_discarded()) {
                problem = tr("This is not valid JSON; check brackets, quotes and commas.");
                return json();
            }
            return v;
        };
        e.write = [edit](const json &v) {
            edit->setPlainText(v.is_null() ? QString() : QString::fromStdString(v.dump(2)));
        };
        break;
    }
    }

    // Combo boxes, spin boxes and check boxes keep their natural width at the left of the cell.
    const bool natural = qobject_cast<QComboBox *>(e.editor)
                         || qobject_cast<QAbstractSpinBox *>(e.editor)
                         || qobject_cast<QCheckBox *>(e.editor);
    box->addWidget(e.editor, 0, natural ? Qt::AlignLeft : Qt::Alignment());
    if (!f.description.isEmpty()) {
        // Wrapped to the form's width (the form never scrolls sideways, also in German); the
        // full text is in the tooltip too.
        auto *hint = new QLabel(f.description.simplified(), cell);
        hint->setObjectName(QStringLiteral("hint"));
        hint->setWordWrap(true);
        hint->setTextFormat(Qt::PlainText);
        hint->setToolTip(f.description);
        hint->setForegroundRole(QPalette::PlaceholderText);
        QFont small = hint->font();
        small.setPointSizeF(small.pointSizeF() * 0.9);
        hint->setFont(small);
        box->addWidget(hint);
    }
    e.error = new QLabel(cell);
    e.error->setWordWrap(true);
    e.error->setStyleSheet(QStringLiteral("color: #d0312d;"));
    e.error->setVisible(false);
    box->addWidget(e.error);
    e.editor->setToolTip(f.description.isEmpty() ? boundsHint(f) : f.description);
    e.editor->setObjectName(QString::fromStdString(f.name));
    e.editor->setAccessibleName(f.title);

    // Required fields carry a marker in the label, as in every form the user knows.
    const QString label = f.required ? tr("%1 *").arg(f.title) : f.title;
    auto *labelWidget = new QLabel(label, this);
    labelWidget->setBuddy(e.editor);
    if (f.required) {
        QFont bold = labelWidget->font();
        bold.setBold(true);
        labelWidget->setFont(bold);
    }
    m_layout->addRow(labelWidget, cell);
    if (f.hasDefault())
        e.write(f.defaultValue);
    e.touched = f.hasDefault();
}

nlohmann::json SchemaForm::value() const
{
    json out = json::object();
    for (const auto &e : m_entries) {
        if (e->varied)
            continue;
        QString problem;
        json v = e->read(problem);
        if (problem.isEmpty() && !v.is_null()) {
            if (e->field.name.empty())
                return v; // non-object root edited as raw JSON
            out[e->field.name] = v;
        }
    }
    return out;
}

void SchemaForm::setValue(const nlohmann::json &value)
{
    const QSignalBlocker block(this);
    for (auto &e : m_entries) {
        const json *v = nullptr;
        if (value.is_object()) {
            auto it = value.find(e->field.name);
            if (it != value.end())
                v = &*it;
        }
        if (v) {
            e->write(*v);
        } else {
            e->write(e->field.defaultValue);
            e->touched = e->field.hasDefault();
        }
        showErrors(*e, {});
    }
    Q_EMIT valueChanged();
}

QStringList SchemaForm::validate()
{
    QStringList all;
    for (auto &e : m_entries) {
        if (e->varied) {
            showErrors(*e, {});
            continue;
        }
        QStringList errors;
        if (e->nested) {
            const QStringList inner = e->nested->validate();
            for (const QString &m : inner)
                errors << tr("%1: %2").arg(e->field.title, m);
            QString problem;
            if (e->read(problem).is_null() && e->field.required && inner.isEmpty())
                errors << tr("%1 is required.").arg(e->field.title);
        } else {
            QString problem;
            const json v = e->read(problem);
            if (!problem.isEmpty())
                errors << tr("%1: %2").arg(e->field.title, problem);
            else
                errors << e->field.validate(v);
        }
        showErrors(*e, errors);
        all << errors;
    }
    return all;
}

void SchemaForm::showErrors(Entry &e, const QStringList &errors)
{
    e.error->setText(errors.join(QLatin1Char('\n')));
    e.error->setVisible(!errors.isEmpty());
}

void SchemaForm::setFieldVaried(const std::string &name, bool varied)
{
    for (auto &e : m_entries) {
        if (e->field.name == name) {
            e->varied = varied;
            e->editor->setEnabled(!varied);
            e->editor->setToolTip(varied ? tr("Varied by the sweep") : e->field.description);
            Q_EMIT valueChanged();
        }
    }
}

bool SchemaForm::isFieldVaried(const std::string &name) const
{
    for (const auto &e : m_entries) {
        if (e->field.name == name)
            return e->varied;
    }
    return false;
}

QWidget *SchemaForm::editor(const std::string &path) const
{
    const auto dot = path.find('.');
    const std::string head = path.substr(0, dot);
    for (const auto &e : m_entries) {
        if (e->field.name != head)
            continue;
        if (dot == std::string::npos)
            return e->editor;
        return e->nested ? e->nested->editor(path.substr(dot + 1)) : nullptr;
    }
    return nullptr;
}

} // namespace Eddy
