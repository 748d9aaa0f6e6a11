<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>Eddy::Agent::Agent</name>
    <message numerus="yes">
        <source>The user attached %n earlier task(s) to this conversation:
</source>
        <translation>
            <numerusform>The user attached %n earlier task to this conversation:
</numerusform>
            <numerusform>The user attached %n earlier tasks to this conversation:
</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The agent stopped after %n model request(s) in one turn; ask again to let it continue.</source>
        <translation>
            <numerusform>The agent stopped after %n model request in one turn; ask again to let it continue.</numerusform>
            <numerusform>The agent stopped after %n model requests in one turn; ask again to let it continue.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (Eddy compacted %n message(s); the task list below is read from Eddy&apos;s database, so it is current).</source>
        <translation>
            <numerusform>%1 (Eddy compacted %n message; the task list below is read from Eddy&apos;s database, so it is current).</numerusform>
            <numerusform>%1 (Eddy compacted %n messages; the task list below is read from Eddy&apos;s database, so it is current).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::Agent::AgentTools</name>
    <message numerus="yes">
        <source>Sweep %1: %n task(s) so far, more being sent</source>
        <translation>
            <numerusform>Sweep %1: %n task so far, more being sent</numerusform>
            <numerusform>Sweep %1: %n tasks so far, more being sent</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sweep %1: %n task(s) started (%2)</source>
        <translation>
            <numerusform>Sweep %1: %n task started (%2)</numerusform>
            <numerusform>Sweep %1: %n tasks started (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n case(s) rejected: %1</source>
        <translation>
            <numerusform>; %n case rejected: %1</numerusform>
            <numerusform>; %n cases rejected: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>list_tasks: %n task(s)</source>
        <translation>
            <numerusform>list_tasks: %n task</numerusform>
            <numerusform>list_tasks: %n tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::AgentPanel</name>
    <message numerus="yes">
        <source>Compacted %n older message(s) into a summary.</source>
        <translation>
            <numerusform>Compacted %n older message into a summary.</numerusform>
            <numerusform>Compacted %n older messages into a summary.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::AnswerPanel</name>
    <message numerus="yes">
        <source>Please fix %n field(s) before accepting.</source>
        <translation>
            <numerusform>Please fix %n field before accepting.</numerusform>
            <numerusform>Please fix %n fields before accepting.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::AttachDialog</name>
    <message numerus="yes">
        <source>%n task(s) found.</source>
        <translation>
            <numerusform>%n task found.</numerusform>
            <numerusform>%n tasks found.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::CompareView</name>
    <message numerus="yes">
        <source>%n regression(s) against %1 (marked ⚠ in the table; point at one for its reason):</source>
        <translation>
            <numerusform>%n regression against %1 (marked ⚠ in the table; point at one for its reason):</numerusform>
            <numerusform>%n regressions against %1 (marked ⚠ in the table; point at one for its reason):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::FirstRun</name>
    <message numerus="yes">
        <source>%n task(s) are still running on the local server.</source>
        <translation>
            <numerusform>%n task is still running on the local server.</numerusform>
            <numerusform>%n tasks are still running on the local server.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::HandlesActions</name>
    <message numerus="yes">
        <source>%n endpoint(s) in this file belong to no server Eddy knows (%1).
Enter the URL of the server the other client connected to, exactly as it wrote it, or pick a known server. Leave it empty to import only the tasks of known servers.</source>
        <translation>
            <numerusform>%n endpoint in this file belongs to no server Eddy knows (%1).
Enter the URL of the server the other client connected to, exactly as it wrote it, or pick a known server. Leave it empty to import only the tasks of known servers.</numerusform>
            <numerusform>%n endpoints in this file belong to no server Eddy knows (%1).
Enter the URL of the server the other client connected to, exactly as it wrote it, or pick a known server. Leave it empty to import only the tasks of known servers.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n task reference(s) to %1 (readable by you only).</source>
        <translation>
            <numerusform>Wrote %n task reference to %1 (readable by you only).</numerusform>
            <numerusform>Wrote %n task references to %1 (readable by you only).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Skipped %n task(s) that cannot be handed off.</source>
        <translation>
            <numerusform>Skipped %n task that cannot be handed off.</numerusform>
            <numerusform>Skipped %n tasks that cannot be handed off.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::MainWindow</name>
    <message numerus="yes">
        <source>Cancel requested for %n task(s); waiting for the server to agree.</source>
        <translation>
            <numerusform>Cancel requested for %n task; waiting for the server to agree.</numerusform>
            <numerusform>Cancel requested for %n tasks; waiting for the server to agree.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n task(s) attached.</source>
        <translation>
            <numerusform>%n task attached.</numerusform>
            <numerusform>%n tasks attached.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sweep %1 journalled: %n case(s) are being submitted.</source>
        <translation>
            <numerusform>Sweep %1 journalled: %n case is being submitted.</numerusform>
            <numerusform>Sweep %1 journalled: %n cases are being submitted.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n case(s))</source>
        <translation>
            <numerusform>%1 (%n case)</numerusform>
            <numerusform>%1 (%n cases)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Re-running %n case(s).</source>
        <translation>
            <numerusform>Re-running %n case.</numerusform>
            <numerusform>Re-running %n cases.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n open question(s). Select one in the list to answer it here while its case stays in view.</source>
        <translation>
            <numerusform>%n open question. Select it in the list to answer it here while its case stays in view.</numerusform>
            <numerusform>%n open questions. Select one in the list to answer it here while its case stays in view.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Answer sent for %1: %2.

%n more open question(s): select the next one in the list.</source>
        <translation>
            <numerusform>Answer sent for %1: %2.

%n more open question: select it in the list.</numerusform>
            <numerusform>Answer sent for %1: %2.

%n more open questions: select the next one in the list.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n call(s) not sent yet — %1</source>
        <translation>
            <numerusform>%n call not sent yet — %1</numerusform>
            <numerusform>%n calls not sent yet — %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::Mcp::OAuth</name>
    <message numerus="yes">
        <source>%1 still refuses access after %n sign-in(s)%2; Eddy stops asking. Ask the server&apos;s administrator to grant your account the needed access.</source>
        <translation>
            <numerusform>%1 still refuses access after %n sign-in%2; Eddy stops asking. Ask the server&apos;s administrator to grant your account the needed access.</numerusform>
            <numerusform>%1 still refuses access after %n sign-ins%2; Eddy stops asking. Ask the server&apos;s administrator to grant your account the needed access.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No sign-in arrived within %n minute(s); run the command again and finish signing in in the browser.</source>
        <translation>
            <numerusform>No sign-in arrived within %n minute; run the command again and finish signing in in the browser.</numerusform>
            <numerusform>No sign-in arrived within %n minutes; run the command again and finish signing in in the browser.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::Monitor::TaskHandle</name>
    <message numerus="yes">
        <source>the endpoint %1 is none of the %n server(s) Eddy knows; add the server the task runs on: eddyctl handles import FILE --server URL (the URL the requester connected to)</source>
        <translation>
            <numerusform>the endpoint %1 is not the %n server Eddy knows; add the server the task runs on: eddyctl handles import FILE --server URL (the URL the requester connected to)</numerusform>
            <numerusform>the endpoint %1 is none of the %n servers Eddy knows; add the server the task runs on: eddyctl handles import FILE --server URL (the URL the requester connected to)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::ParallelCoordinatesPanel</name>
    <message numerus="yes">
        <source>%n case(s) inside the brushed ranges, selected in the sweep table.</source>
        <translation>
            <numerusform>%n case inside the brushed ranges, selected in the sweep table.</numerusform>
            <numerusform>%n cases inside the brushed ranges, selected in the sweep table.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::ResultView</name>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n item</numerusform>
            <numerusform>%n items</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n value(s)</source>
        <translation>
            <numerusform>%n value</numerusform>
            <numerusform>%n values</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::ReviewActions</name>
    <message numerus="yes">
        <source>Note on %n case(s) (empty clears it):</source>
        <translation>
            <numerusform>Note on %n case (empty clears it):</numerusform>
            <numerusform>Note on %n cases (empty clears it):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tags of %n case(s), separated by spaces (e.g. suspect mesh-study):</source>
        <translation>
            <numerusform>Tags of %n case, separated by spaces (e.g. suspect mesh-study):</numerusform>
            <numerusform>Tags of %n cases, separated by spaces (e.g. suspect mesh-study):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::SchemaField</name>
    <message numerus="yes">
        <source>%1 needs at least %n character(s).</source>
        <translation>
            <numerusform>%1 needs at least %n character.</numerusform>
            <numerusform>%1 needs at least %n characters.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 allows at most %n character(s).</source>
        <translation>
            <numerusform>%1 allows at most %n character.</numerusform>
            <numerusform>%1 allows at most %n characters.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 needs at least %n item(s).</source>
        <translation>
            <numerusform>%1 needs at least %n item.</numerusform>
            <numerusform>%1 needs at least %n items.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 allows at most %n item(s).</source>
        <translation>
            <numerusform>%1 allows at most %n item.</numerusform>
            <numerusform>%1 allows at most %n items.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::ServerRemoval</name>
    <message numerus="yes">
        <source>It has %n stored task(s). Kept as history, they stay in their sessions, readable and exportable, marked as from a removed server; adding the same URL again brings the server back with them.</source>
        <translation>
            <numerusform>It has %n stored task. Kept as history, it stays in its session, readable and exportable, marked as from a removed server; adding the same URL again brings the server back with it.</numerusform>
            <numerusform>It has %n stored tasks. Kept as history, they stay in their sessions, readable and exportable, marked as from a removed server; adding the same URL again brings the server back with them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Still running on it: %n task(s). Eddy will no longer watch them: they are kept as lost, and whatever they compute from now on stays on the server.</source>
        <translation>
            <numerusform>Still running on it: %n task. Eddy will no longer watch it: it is kept as lost, and whatever it computes from now on stays on the server.</numerusform>
            <numerusform>Still running on it: %n tasks. Eddy will no longer watch them: they are kept as lost, and whatever they compute from now on stays on the server.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete Its %n Task(s) Too</source>
        <translation>
            <numerusform>Delete Its %n Task Too</numerusform>
            <numerusform>Delete Its %n Tasks Too</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::SessionListModel</name>
    <message numerus="yes">
        <source>%n task(s)</source>
        <translation>
            <numerusform>%n task</numerusform>
            <numerusform>%n tasks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Agent conversation, %n task(s)</source>
        <translation>
            <numerusform>Agent conversation, %n task</numerusform>
            <numerusform>Agent conversation, %n tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::SweepEditor</name>
    <message numerus="yes">
        <source>Submit %n Case(s)</source>
        <translation>
            <numerusform>Submit %n Case</numerusform>
            <numerusform>Submit %n Cases</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::SweepReport</name>
    <message numerus="yes">
        <source>%n question(s), in case order.</source>
        <translation>
            <numerusform>%n question, in case order.</numerusform>
            <numerusform>%n questions, in case order.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n case(s).</source>
        <translation>
            <numerusform>%n case.</numerusform>
            <numerusform>%n cases.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::SweepResultsView</name>
    <message numerus="yes">
        <source>%1 of %n case(s) with results</source>
        <translation>
            <numerusform>%1 of %n case with results</numerusform>
            <numerusform>%1 of %n cases with results</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n not sent yet</source>
        <translation>
            <numerusform>, %n not sent yet</numerusform>
            <numerusform>, %n not sent yet</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Eddy::TaskMonitor</name>
    <message numerus="yes">
        <source>Ask the server to cancel %n running task(s)? Results already computed are lost.</source>
        <translation>
            <numerusform>Ask the server to cancel %n running task? Results already computed are lost.</numerusform>
            <numerusform>Ask the server to cancel %n running tasks? Results already computed are lost.</numerusform>
        </translation>
    </message>
</context>
</TS>
