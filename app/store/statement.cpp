#include "app/store/statement.h"

#include <sqlite3.h>

#include <utility>

namespace Eddy::Store {

Statement::Statement(sqlite3 *db, sqlite3_stmt *stmt) : m_db(db), m_stmt(stmt) {}

Statement::~Statement()
{
    if (m_stmt)
        sqlite3_finalize(m_stmt);
}

Statement::Statement(Statement &&other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_stmt(std::exchange(other.m_stmt, nullptr))
{
}

Statement &Statement::operator=(Statement &&other) noexcept
{
    if (this != &other) {
        if (m_stmt)
            sqlite3_finalize(m_stmt);
        m_db = std::exchange(other.m_db, nullptr);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

Statement &Statement::bind(int index, qint64 value)
{
    if (m_stmt)
        sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

Statement &Statement::bind(int index, double value)
{
    if (m_stmt)
        sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

Statement &Statement::bind(int index, const QString &value)
{
    if (value.isNull())
        return bindNull(index);
    return bind(index, value.toUtf8());
}

Statement &Statement::bind(int index, const std::string &value)
{
    if (m_stmt)
        sqlite3_bind_text(m_stmt, index, value.data(), int(value.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bind(int index, const QByteArray &value)
{
    if (value.isNull())
        return bindNull(index);
    if (m_stmt)
        sqlite3_bind_text(m_stmt, index, value.constData(), int(value.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement &Statement::bindNull(int index)
{
    if (m_stmt)
        sqlite3_bind_null(m_stmt, index);
    return *this;
}

Statement::StepResult Statement::step()
{
    if (!m_stmt)
        return StepResult::Error;
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return StepResult::Row;
    if (rc == SQLITE_DONE)
        return StepResult::Done;
    return StepResult::Error;
}

bool Statement::exec()
{
    StepResult r;
    while ((r = step()) == StepResult::Row) {
    }
    const bool ok = r == StepResult::Done;
    if (m_stmt) {
        // Keep the error text readable after reset() clears the statement's error state.
        if (ok)
            sqlite3_reset(m_stmt);
    }
    return ok;
}

void Statement::reset()
{
    if (m_stmt)
        sqlite3_reset(m_stmt);
}

bool Statement::isNull(int column) const
{
    return !m_stmt || sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

qint64 Statement::int64(int column) const
{
    return m_stmt ? sqlite3_column_int64(m_stmt, column) : 0;
}

double Statement::real(int column) const
{
    return m_stmt ? sqlite3_column_double(m_stmt, column) : 0.0;
}

QString Statement::text(int column) const
{
    if (!m_stmt || sqlite3_column_type(m_stmt, column) == SQLITE_NULL)
        return {};
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return QString::fromUtf8(p, sqlite3_column_bytes(m_stmt, column));
}

std::string Statement::utf8(int column) const
{
    if (!m_stmt || sqlite3_column_type(m_stmt, column) == SQLITE_NULL)
        return {};
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, column));
    return std::string(p, size_t(sqlite3_column_bytes(m_stmt, column)));
}

std::optional<qint64> Statement::optInt64(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return int64(column);
}

std::optional<double> Statement::optReal(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return real(column);
}

QString Statement::errorString() const
{
    if (!m_stmt)
        return m_db ? QString::fromUtf8(sqlite3_errmsg(m_db)) : QStringLiteral("no statement");
    return QString::fromUtf8(sqlite3_errmsg(m_db));
}

} // namespace Eddy::Store
