// JobAdapterForm: the Job Adapter dialog's validation names the field of every problem, from the
// format's own rules (JobAdapter::fromJson, as eddyctl adapter set) and from the server's tools.
#include "models/jobadapterform.h"

#include <QTest>

using Eddy::JobAdapterForm;
using nlohmann::json;

namespace {

json tools()
{
    const json idSchema
        = {{"type", "object"},
           {"properties", {{"job_id", {{"type", "string"}}}, {"job_ids", {{"type", "array"}}}}}};
    return json::array({{{"name", "submit_case"}, {"inputSchema", {{"type", "object"}}}},
                        {{"name", "case_status"}, {"inputSchema", idSchema}},
                        {{"name", "cancel_case"}, {"inputSchema", idSchema}}});
}

json good()
{
    return {{"version", 1},
            {"submit", {{"tool", "submit_case"}, {"jobIdPointer", "/job_id"}}},
            {"status",
             {{"tool", "case_status"},
              {"idArgument", "job_id"},
              {"statePointer", "/state"},
              {"states", {{"running", "working"}, {"done", "completed"}}}}},
            {"cancelTool", "cancel_case"},
            {"poll", {{"intervalMs", 1000}, {"backoff", 1.5}, {"maxIntervalMs", 5000}}}};
}

} // namespace

class tst_JobAdapterForm : public QObject
{
    Q_OBJECT

private slots:
    void goodAdapterPasses();
    void eachProblemNamesItsField_data();
    void eachProblemNamesItsField();
};

void tst_JobAdapterForm::goodAdapterPasses()
{
    QList<JobAdapterForm::Problem> problems;
    const auto a = JobAdapterForm::validate(good(), tools(), &problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.value(0).message));
    QVERIFY(a);
    QCOMPARE(a->statusTool, QStringLiteral("case_status"));
    QCOMPARE(JobAdapterForm::argumentNames(tools(), QStringLiteral("case_status")),
             (QStringList{QStringLiteral("job_id"), QStringLiteral("job_ids")}));
}

void tst_JobAdapterForm::eachProblemNamesItsField_data()
{
    QTest::addColumn<QByteArray>("pointer"); // JSON pointer into the adapter
    QTest::addColumn<QByteArray>("value");   // JSON; null removes the key
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("says");
    QTest::newRow("pointer without slash")
        << QByteArray("/submit/jobIdPointer") << QByteArray("\"job_id\"") << "submit.jobIdPointer"
        << "Submit \u25B8 Job id pointer";
    QTest::newRow("no id at all") << QByteArray("/submit/jobIdPointer") << QByteArray("null")
                                  << "submit.jobIdPointer"
                                  << "jobIdRegex";
    QTest::newRow("unknown status tool")
        << QByteArray("/status/tool") << QByteArray("\"squeue\"") << "status.tool"
        << "offers no tool \"squeue\"";
    QTest::newRow("argument the tool lacks")
        << QByteArray("/status/idArgument") << QByteArray("\"id\"") << "status.idArgument"
        << "takes no argument \"id\"";
    QTest::newRow("unknown task state")
        << QByteArray("/status/states/running") << QByteArray("\"busy\"") << "status.states"
        << "\"busy\"";
    QTest::newRow("max below first")
        << QByteArray("/poll/maxIntervalMs") << QByteArray("500") << "poll.maxIntervalMs"
        << "at least";
    QTest::newRow("unknown cancel tool")
        << QByteArray("/cancelTool") << QByteArray("\"scancel\"") << "cancelTool"
        << "Cancel tool";
}

void tst_JobAdapterForm::eachProblemNamesItsField()
{
    QFETCH(QByteArray, pointer);
    QFETCH(QByteArray, value);
    QFETCH(QString, field);
    QFETCH(QString, says);
    json adapter = good();
    const json v = json::parse(value.toStdString());
    const json::json_pointer p(pointer.toStdString());
    if (v.is_null())
        adapter[p.parent_pointer()].erase(p.back());
    else
        adapter[p] = v;
    QList<JobAdapterForm::Problem> problems;
    QVERIFY(!JobAdapterForm::validate(adapter, tools(), &problems));
    QCOMPARE(problems.size(), 1);
    QCOMPARE(problems[0].field, field);
    QVERIFY2(problems[0].message.contains(says), qPrintable(problems[0].message));
    QVERIFY2(problems[0].message.startsWith(JobAdapterForm::fieldLabel(field)),
             qPrintable(problems[0].message));
}

QTEST_GUILESS_MAIN(tst_JobAdapterForm)
#include "tst_jobadapterform.moc"
