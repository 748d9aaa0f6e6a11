#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <optional>

struct sqlite3;
struct sqlite3_stmt;

namespace Eddy::Store {

// A prepared statement (RAII over sqlite3_stmt*), bound by 1-based index. Move-only; used on the
// thread of the Database that prepared it. An invalid statement (prepare failed) fails every step.
class Statement final
{
public:
    enum class StepResult { Row, Done, Error };

    Statement() = default;
    Statement(sqlite3 *db, sqlite3_stmt *stmt);
    ~Statement();
    Statement(Statement &&other) noexcept;
    Statement &operator=(Statement &&other) noexcept;
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool isValid() const { return m_stmt != nullptr; }

    Statement &bind(int index, qint64 value);
    Statement &bind(int index, int value) { return bind(index, qint64(value)); }
    Statement &bind(int index, bool value) { return bind(index, qint64(value ? 1 : 0)); }
    Statement &bind(int index, double value);
    Statement &bind(int index, const QString &value);   // NULL when value.isNull()
    Statement &bind(int index, const char *value) { return bind(index, QString::fromUtf8(value)); }
    Statement &bind(int index, const std::string &value);
    Statement &bind(int index, const QByteArray &value); // as text; NULL when isNull()
    Statement &bindNull(int index);
    template<typename T>
    Statement &bind(int index, const std::optional<T> &value)
    {
        return value ? bind(index, *value) : bindNull(index);
    }

    StepResult step();
    // Steps to completion (for INSERT/UPDATE/DELETE); false on error.
    bool exec();
    void reset(); // keeps bindings; ready for another step()

    bool isNull(int column) const;
    qint64 int64(int column) const;
    int integer(int column) const { return int(int64(column)); }
    double real(int column) const;
    QString text(int column) const;
    std::string utf8(int column) const;
    std::optional<qint64> optInt64(int column) const;
    std::optional<double> optReal(int column) const;

    QString errorString() const;

private:
    sqlite3 *m_db = nullptr;
    sqlite3_stmt *m_stmt = nullptr;
};

} // namespace Eddy::Store
