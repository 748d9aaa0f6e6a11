#include "app/mcp/questionkeys.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;

// The stable keys of a 2025-11-25 task's questions (QuestionKeys): a server that numbers its
// requests per session asks the same question under a new id after a restart; the key must not
// change with it, and an answered question's key must never be handed to a new one.
class tst_QuestionKeys : public QObject
{
    Q_OBJECT

private slots:
    void keyIsWhatIsAskedNotTheRequestId();
    void sameQuestionTwiceGetsTwoKeys();
    void pendingKeyKeptAnsweredKeyNotReused();
    void askedAsFollowsTheLastAssign();
    void notAnObjectForgetsTheMapping();
    void forget();

private:
    static json question(const char *message)
    {
        return {{"method", "elicitation/create"},
                {"params", {{"message", message}, {"requestedSchema", json::object()}}}};
    }
    static QString onlyKey(const json &keyed)
    {
        return keyed.size() == 1 ? QString::fromStdString(keyed.begin().key()) : QString();
    }
};

void tst_QuestionKeys::keyIsWhatIsAskedNotTheRequestId()
{
    QuestionKeys keys;
    const json first = keys.assign("t1", {{"srv:1", question("mesh ok?")}}, {});
    // A restarted server asks the same question under another id: same key.
    const json again = keys.assign("t1", {{"srv:7", question("mesh ok?")}}, {});
    QCOMPARE(first.size(), size_t(1));
    QCOMPARE(onlyKey(again), onlyKey(first));
    QVERIFY(onlyKey(first).startsWith(QLatin1String("q-")));
    QVERIFY(onlyKey(first).endsWith(QLatin1String("-0")));
    QVERIFY(again.begin().value() == question("mesh ok?"));
    // Another question, another key; the same question in another task, the same key.
    const json other = keys.assign("t1", {{"srv:7", question("continue?")}}, {});
    QVERIFY(onlyKey(other) != onlyKey(first));
    QCOMPARE(onlyKey(keys.assign("t2", {{"srv:1", question("mesh ok?")}}, {})), onlyKey(first));
}

void tst_QuestionKeys::sameQuestionTwiceGetsTwoKeys()
{
    QuestionKeys keys;
    const json keyed
        = keys.assign("t", {{"srv:1", question("again?")}, {"srv:2", question("again?")}}, {});
    QCOMPARE(keyed.size(), size_t(2));
    QStringList names;
    for (auto it = keyed.begin(); it != keyed.end(); ++it)
        names << QString::fromStdString(it.key());
    names.sort();
    QVERIFY(names[0].endsWith(QLatin1String("-0")));
    QVERIFY(names[1].endsWith(QLatin1String("-1")));
    QCOMPARE(names[0].chopped(1), names[1].chopped(1));
}

void tst_QuestionKeys::pendingKeyKeptAnsweredKeyNotReused()
{
    QuestionKeys keys;
    const QString first = onlyKey(keys.assign("t", {{"srv:1", question("next?")}}, {}));
    const QString prefix = first.chopped(1);
    int recordReads = 0;
    // The record says the first asking was answered: the question asked again is a new one.
    const QuestionKeys::Record answered = [&](const std::string &taskId) {
        ++recordReads;
        return taskId == "t" ? QuestionKeys::Known{{first, true}} : QuestionKeys::Known();
    };
    const QString second = onlyKey(keys.assign("t", {{"srv:9", question("next?")}}, answered));
    QCOMPARE(recordReads, 1);
    QCOMPARE(second, prefix + QLatin1Char('1'));
    // Still pending in the record: it keeps its key.
    const QuestionKeys::Record pending = [&](const std::string &) {
        return QuestionKeys::Known{{first, true}, {second, false}};
    };
    QCOMPARE(onlyKey(keys.assign("t", {{"srv:10", question("next?")}}, pending)), second);
    // Both answered: a third key.
    const QuestionKeys::Record both = [&](const std::string &) {
        return QuestionKeys::Known{{first, true}, {second, true}};
    };
    QCOMPARE(onlyKey(keys.assign("t", {{"srv:11", question("next?")}}, both)),
             prefix + QLatin1Char('2'));
}

void tst_QuestionKeys::askedAsFollowsTheLastAssign()
{
    QuestionKeys keys;
    const QString key = onlyKey(keys.assign("t", {{"srv:1", question("ok?")}}, {}));
    QCOMPARE(keys.askedAs("t", key), QStringLiteral("srv:1"));
    QCOMPARE(keys.askedAs("t", QStringLiteral("q-unknown-0")), QString());
    QCOMPARE(keys.askedAs("other", key), QString());
    keys.assign("t", {{"srv:4", question("ok?")}}, {});
    QCOMPARE(keys.askedAs("t", key), QStringLiteral("srv:4"));
}

void tst_QuestionKeys::notAnObjectForgetsTheMapping()
{
    QuestionKeys keys;
    const QString key = onlyKey(keys.assign("t", {{"srv:1", question("ok?")}}, {}));
    bool read = false;
    const json keyed = keys.assign("t", json::array(), [&](const std::string &) {
        read = true;
        return QuestionKeys::Known();
    });
    QVERIFY(keyed == json::object());
    QVERIFY(!read);
    QCOMPARE(keys.askedAs("t", key), QString());
}

void tst_QuestionKeys::forget()
{
    QuestionKeys keys;
    const QString key = onlyKey(keys.assign("t", {{"srv:1", question("ok?")}}, {}));
    const QString other = onlyKey(keys.assign("u", {{"srv:1", question("ok?")}}, {}));
    keys.forget("t");
    QCOMPARE(keys.askedAs("t", key), QString());
    QCOMPARE(keys.askedAs("u", other), QStringLiteral("srv:1"));
}

QTEST_GUILESS_MAIN(tst_QuestionKeys)
#include "tst_questionkeys.moc"
