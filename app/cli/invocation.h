#pragma once

#include "app/cli/options.h"
#include "app/monitor/engine.h"

#include <QObject>
#include <QTextStream>

#include <nlohmann/json.hpp>

#include <functional>
#include <optional>

namespace Eddy::Cli {

enum ExitCode { Ok = 0, Failure = 1, Usage = 2 };

// One eddyctl run as every command sees it: its options, the Engine, standard output and error,
// and its end, done() once with the exit code. The steps commands share live here too: opening
// the database, naming a server, printing a task, taking a task's questions. Main thread.
class Invocation final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Invocation)

public:
    explicit Invocation(QObject *parent = nullptr);

    const Options &options() const { return m_options; }
    void setOptions(Options options) { m_options = std::move(options); }
    const QStringList &args() const { return m_options.words; } // the command first
    Monitor::Engine &engine() { return m_engine; }
    QTextStream &out() { return m_out; }
    QTextStream &err() { return m_err; }
    bool isFinished() const { return m_finished; }
    // Standard input and error are a terminal: questions are asked there.
    bool isInteractive() const { return m_interactive; }

    void finish(int code);
    void fail(const QString &message, int code = Failure);
    bool openEngine(bool monitoring);
    // The stored server of `url`, added when new; finish(Failure) when it cannot be.
    std::optional<qint64> serverFor(const QString &url);
    // --answers FILE: the engine answers every question from it; fail() when it cannot be read.
    bool loadAnswers();
    bool hasAnswers() const { return m_answers.has_value(); }
    // Questions on the terminal (or how to answer them), and answers, retries and refusals of
    // calls on standard error.
    void hookInput();
    // The call this run waits for (eddyctl call): a question before it starts ends the run.
    void setWaitCase(qint64 caseId) { m_waitCase = caseId; }
    qint64 waitCase() const { return m_waitCase; }
    nlohmann::json taskJson(const Store::TaskRecord &t);
    void printChange(const Store::TaskRecord &t);
    // Prints every change of a task the engine reports, from now on (watch, handles import --wait).
    void printChanges();

signals:
    void done(int exitCode);

private:
    // MCP authorization for servers without --token: prints the sign-in URL and opens it in
    // $EDDY_BROWSER or xdg-open unless --no-browser.
    void setUpSignIn();
    void askInteractively(const Store::InputRequestRecord &request);
    // Prompts for a form (or URL-mode) question on the terminal; `send` gets the ElicitResult.
    void askOnTerminal(const QString &who,
                       const nlohmann::json &request,
                       const std::function<void(const QByteArray &)> &send);

    Options m_options;
    Monitor::Engine m_engine;
    QTextStream m_out;
    QTextStream m_err;
    std::optional<nlohmann::json> m_answers;
    qint64 m_waitCase = -1;
    bool m_interactive = false;
    bool m_finished = false;
};

} // namespace Eddy::Cli
