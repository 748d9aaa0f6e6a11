#include "app/net/sseparser.h"

#include <QTest>

using Eddy::Net::SseEvent;
using Eddy::Net::SseParser;

// Events rendered as "type|data|id" lines so rows stay readable.
static QStringList render(const std::vector<SseEvent> &events)
{
    QStringList out;
    for (const SseEvent &e : events)
        out << QString::fromUtf8(e.event + '|' + e.data + '|' + e.id);
    return out;
}

class tst_SseParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void retryField();
    void resetClearsState();
};

void tst_SseParser::parse_data()
{
    QTest::addColumn<QList<QByteArray>>("chunks");
    QTest::addColumn<QStringList>("expected");

    QTest::newRow("one event") << QList<QByteArray>{"data: {\"a\":1}\n\n"}
                               << QStringList{"message|{\"a\":1}|"};
    QTest::newRow("multi-line data") << QList<QByteArray>{"data: one\ndata: two\n\n"}
                                     << QStringList{"message|one\ntwo|"};
    QTest::newRow("CRLF") << QList<QByteArray>{"data: x\r\n\r\n"} << QStringList{"message|x|"};
    QTest::newRow("CR only") << QList<QByteArray>{"data: x\r\rdata: y\r\r"}
                             << QStringList{"message|x|", "message|y|"};
    QTest::newRow("CRLF split across chunks")
        << QList<QByteArray>{"data: x\r", "\n\r", "\n"} << QStringList{"message|x|"};
    QTest::newRow("partial line") << QList<QByteArray>{"da", "ta: he", "llo\n", "\n"}
                                  << QStringList{"message|hello|"};
    QTest::newRow("comments ignored") << QList<QByteArray>{": keep-alive\n\n: x\ndata: y\n\n"}
                                      << QStringList{"message|y|"};
    QTest::newRow("event type and id")
        << QList<QByteArray>{"event: update\nid: 7\ndata: z\n\ndata: w\n\n"}
        << QStringList{"update|z|7", "message|w|7"};
    QTest::newRow("no space after colon") << QList<QByteArray>{"data:x\n\n"}
                                          << QStringList{"message|x|"};
    QTest::newRow("only first space stripped") << QList<QByteArray>{"data:  x\n\n"}
                                               << QStringList{"message| x|"};
    QTest::newRow("colon inside value") << QList<QByteArray>{"data: a:b\n\n"}
                                        << QStringList{"message|a:b|"};
    QTest::newRow("field without colon") << QList<QByteArray>{"data\n\n"}
                                         << QStringList{"message||"};
    QTest::newRow("no blank line, no dispatch") << QList<QByteArray>{"data: pending\n"}
                                                << QStringList{};
    QTest::newRow("blank lines alone") << QList<QByteArray>{"\n\n\r\n"} << QStringList{};
    QTest::newRow("unknown field ignored") << QList<QByteArray>{"foo: bar\ndata: q\n\n"}
                                           << QStringList{"message|q|"};
    QTest::newRow("leading BOM") << QList<QByteArray>{"\xEF\xBB\xBF" "data: b\n\n"}
                                 << QStringList{"message|b|"};
    QTest::newRow("event type resets") << QList<QByteArray>{"event: a\n\ndata: c\n\n"}
                                       << QStringList{"message|c|"};
    QTest::newRow("utf-8 kept") << QList<QByteArray>{"data: \xC3\xA9t\xC3\xA9\n\n"}
                                << QStringList{QString::fromUtf8("message|\xC3\xA9t\xC3\xA9|")};
}

void tst_SseParser::parse()
{
    QFETCH(QList<QByteArray>, chunks);
    QFETCH(QStringList, expected);

    SseParser parser;
    std::vector<SseEvent> events;
    for (const QByteArray &c : chunks) {
        auto got = parser.feed(c);
        events.insert(events.end(), got.begin(), got.end());
    }
    QCOMPARE(render(events), expected);

    // The same bytes one at a time must give the same events.
    SseParser byteWise;
    std::vector<SseEvent> events2;
    const QByteArray all = chunks.join();
    for (char ch : all) {
        auto got = byteWise.feed(QByteArray(1, ch));
        events2.insert(events2.end(), got.begin(), got.end());
    }
    QCOMPARE(render(events2), expected);
}

void tst_SseParser::retryField()
{
    SseParser parser;
    auto events = parser.feed("retry: 2500\ndata: x\n\nretry: soon\ndata: y\n\n");
    QCOMPARE(events.size(), size_t(2));
    QCOMPARE(events[0].retryMs.value_or(-1), 2500);
    QCOMPARE(parser.retryMs().value_or(-1), 2500); // a non-numeric retry is ignored
}

void tst_SseParser::resetClearsState()
{
    SseParser parser;
    QVERIFY(parser.feed("id: 5\ndata: partial").empty());
    parser.reset();
    auto events = parser.feed("data: fresh\n\n");
    QCOMPARE(render(events), QStringList{"message|fresh|"});
}

QTEST_GUILESS_MAIN(tst_SseParser)
#include "tst_sseparser.moc"
