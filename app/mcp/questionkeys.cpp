#include "app/mcp/questionkeys.h"

#include <QCryptographicHash>
#include <QSet>

namespace Eddy::Mcp {

using nlohmann::json;

json QuestionKeys::assign(const std::string &taskId, const json &requests, const Record &record)
{
    // The key of a question is what it asks (method and params) and how many times the task was
    // already asked exactly that: a pending question keeps its key, an answered one's key is
    // never handed out again.
    json out = json::object();
    QHash<QString, QString> &current = m_asked[taskId];
    current.clear();
    if (!requests.is_object())
        return out;
    const Known known = record ? record(taskId) : Known();
    QSet<QString> taken;
    for (auto it = requests.begin(); it != requests.end(); ++it) {
        const QByteArray what = QByteArray::fromStdString(it.value().dump());
        const QString prefix = QStringLiteral("q-%1-").arg(QString::fromLatin1(
            QCryptographicHash::hash(what, QCryptographicHash::Sha1).toHex().left(16)));
        QString key;
        QSet<QString> askedBefore;
        for (const auto &[knownKey, answered] : known) {
            if (!knownKey.startsWith(prefix))
                continue;
            askedBefore.insert(knownKey);
            if (key.isEmpty() && !answered && !taken.contains(knownKey))
                key = knownKey;
        }
        for (int n = int(askedBefore.size()); key.isEmpty(); ++n) {
            const QString candidate = prefix + QString::number(n);
            if (!taken.contains(candidate) && !askedBefore.contains(candidate))
                key = candidate;
        }
        taken.insert(key);
        current.insert(key, QString::fromStdString(it.key()));
        out[key.toStdString()] = it.value();
    }
    return out;
}

QString QuestionKeys::askedAs(const std::string &taskId, const QString &key) const
{
    const auto keys = m_asked.find(taskId);
    return keys == m_asked.end() ? QString() : keys->second.value(key);
}

} // namespace Eddy::Mcp
