#pragma once

#include "models/schemafield.h"

#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <vector>

class QFormLayout;
class QLabel;

namespace Eddy {

// A form generated from a JSON Schema object: one editor per property (line edits with
// validators, spin boxes, check boxes, combo boxes with enum titles, lists, nested groups and a
// JSON editor for whatever else), defaults, required markers and validation messages shown
// before anything is sent. Used for tool arguments, sweeps and elicitations. GUI thread.
class SchemaForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaForm)

public:
    explicit SchemaForm(QWidget *parent = nullptr);
    ~SchemaForm() override;

    // Rebuilds the form for an object schema; fields start at their defaults.
    void setSchema(const nlohmann::json &schema);
    const SchemaField &field() const { return m_root; }

    // The entered values as a JSON object; optional fields left empty are absent.
    nlohmann::json value() const;
    // Fills the fields named in `value`; the others go back to their defaults.
    void setValue(const nlohmann::json &value);
    // Returns every problem as "Field: what to fix" and shows it next to its field.
    QStringList validate();
    bool isEmpty() const { return m_entries.empty(); }

    // Greys out a top-level field (e.g. because a sweep varies it) and leaves it out of value().
    void setFieldVaried(const std::string &name, bool varied);
    bool isFieldVaried(const std::string &name) const;
    // The editor of a field by dotted path ("mesh.cells"), for focus and tests.
    QWidget *editor(const std::string &path) const;

Q_SIGNALS:
    void valueChanged();
    // A person changed the top-level field `name` (not emitted by setValue()).
    void fieldEdited(const QString &name);

private:
    struct Entry
    {
        SchemaField field;
        QWidget *editor = nullptr;
        QLabel *error = nullptr;
        SchemaForm *nested = nullptr;
        bool touched = false; // for optional booleans: only a deliberate click sets them
        bool varied = false;
        // Returns the value (null = not set) or fills `problem` when the text cannot be parsed.
        std::function<nlohmann::json(QString &problem)> read;
        std::function<void(const nlohmann::json &)> write;
    };

    void buildEntry(Entry &entry);
    void showErrors(Entry &entry, const QStringList &errors);

    SchemaField m_root;
    QFormLayout *m_layout = nullptr;
    std::vector<std::unique_ptr<Entry>> m_entries;
};

} // namespace Eddy
