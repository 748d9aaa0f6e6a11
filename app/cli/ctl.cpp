#include "app/cli/ctl.h"

#include "app/cli/handlecommands.h"
#include "app/cli/reviewcommands.h"
#include "app/cli/servercommands.h"
#include "app/cli/sessioncommands.h"
#include "app/cli/taskcommands.h"
#include "app/cli/toolcommands.h"

namespace Eddy::Cli {

namespace {

// The command's group, made for this run.
template<typename Group>
Group &make(std::unique_ptr<Group> &group, Invocation &run)
{
    group = std::make_unique<Group>(run);
    return *group;
}

} // namespace

Ctl::Ctl(QStringList arguments, QObject *parent)
    : QObject(parent)
    , m_arguments(std::move(arguments))
{
    connect(&m_run, &Invocation::done, this, &Ctl::done);
}

Ctl::~Ctl() = default;

void Ctl::start()
{
    Options options;
    QString error;
    switch (Options::parse(m_arguments, options, error)) {
    case Options::Parsed::Help:
        m_run.out() << Options::usage();
        return m_run.finish(Ok);
    case Options::Parsed::Wrong:
        return m_run.fail(error, Usage);
    case Options::Parsed::Run:
        break;
    }
    if (options.words.isEmpty()) {
        m_run.err() << Options::usage();
        return m_run.finish(Usage);
    }
    const QString command = options.words.first();
    m_run.setOptions(std::move(options));
    dispatch(command);
}

void Ctl::dispatch(const QString &cmd)
{
    Invocation &run = m_run;
    if (cmd == QLatin1String("discover"))
        make(m_tools, run).discover();
    else if (cmd == QLatin1String("tools"))
        make(m_tools, run).tools();
    else if (cmd == QLatin1String("call"))
        make(m_tools, run).call();
    else if (cmd == QLatin1String("adapter"))
        make(m_tools, run).adapter();
    else if (cmd == QLatin1String("sweep"))
        make(m_tasks, run).sweepSubmit();
    else if (cmd == QLatin1String("tasks"))
        make(m_tasks, run).tasks();
    else if (cmd == QLatin1String("watch"))
        make(m_tasks, run).watch();
    else if (cmd == QLatin1String("answer"))
        make(m_tasks, run).answer();
    else if (cmd == QLatin1String("cancel"))
        make(m_tasks, run).cancel();
    else if (cmd == QLatin1String("result"))
        make(m_tasks, run).result();
    else if (cmd == QLatin1String("export"))
        make(m_tasks, run).exportSweep();
    else if (cmd == QLatin1String("sessions"))
        make(m_sessions, run).sessions();
    else if (cmd == QLatin1String("attach"))
        make(m_sessions, run).attach();
    else if (cmd == QLatin1String("agent"))
        make(m_sessions, run).agent();
    else if (cmd == QLatin1String("handles"))
        make(m_handles, run).run();
    else if (cmd == QLatin1String("servers"))
        make(m_servers, run).run();
    else if (cmd == QLatin1String("note"))
        make(m_review, run).note();
    else if (cmd == QLatin1String("tag"))
        make(m_review, run).tag();
    else if (cmd == QLatin1String("baseline"))
        make(m_review, run).baseline();
    else if (cmd == QLatin1String("pause"))
        make(m_review, run).pause(true);
    else if (cmd == QLatin1String("resume"))
        make(m_review, run).pause(false);
    else if (cmd == QLatin1String("report"))
        make(m_review, run).report();
    else if (cmd == QLatin1String("samples"))
        make(m_review, run).samples();
    else
        m_run.fail(QStringLiteral("unknown command \"%1\".").arg(cmd), Usage);
}

} // namespace Eddy::Cli
