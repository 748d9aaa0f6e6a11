<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AttachDialog</name>
    <message>
        <source>Attach Earlier Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name = value, e.g. reynolds = 400</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Argument:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Since:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach Selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching...</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n task(s) found.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ElicitationDialog</name>
    <message>
        <source>Input Needed — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server asks for input.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Case:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server asks you to open this address in your browser. Check that you trust it; Eddy opens it only when you agree.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This question comes from the server, not from Eddy. Never enter passwords or secrets unless you trust this server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open URL...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell the server no: the case decides what to do (for example abort).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss without answering the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server sent an address that is not a valid URL; decline or cancel.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Please fix %n field(s) before accepting.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Open Address?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open this address in your web browser?

%1

It was sent by %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FirstRun</name>
    <message>
        <source>Local CFD server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks Still Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n task(s) are still running on the local server.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Keep the server running in the background so they finish? Eddy picks them up again when it starts. Stopping pauses them until the next start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop Server</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>InboxModel</name>
    <message>
        <source>The server asks: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server asks for input.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LocalServer</name>
    <message>
        <source>The local server could not be started (%1). Check that eddy-cfd-server is installed next to Eddy or on PATH.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local server stopped before it was ready (exit code %1). Its data folder may be in use by another server; close it or choose another folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local server crashed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The local server exited (code %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eddy could not find eddy-cfd-server next to it or on PATH. Install it, or add a server with Server &gt; Add Server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eddy could not create the server&apos;s data folder %1. Check its permissions.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Task %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Cancel requested for %n task(s); waiting for the server to agree.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n task(s) attached.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 is unreachable: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 asks Eddy to slow down; polling less often.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 online</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Sweep %1 journalled: %n case(s) are being submitted.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Call journalled; sending it to the server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not Submitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A case was rejected by the server: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer sent for %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer Not Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task may be forgotten</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the server may drop it in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eddy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Servers&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Server...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Sessions&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach earlier tasks to this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Servers and Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residuals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer the selected question (Ctrl+I answers the oldest)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input Inbox</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New Sweep...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New Session...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename Session...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach Earlier Tasks...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh Servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer Next Question...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Needs Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Light Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dark Theme</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Eddy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Eddy %1&lt;/h3&gt;&lt;p&gt;A workbench for long-running MCP tasks: sweeps, live residuals, questions from the solver, and every result kept.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Eddy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working %1 · Waiting for input %2 · Done %3 · Failed %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input Inbox (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Study %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 asks: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 completed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 completed with a tool error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to see its residuals.
Select several to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the first residuals...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No residuals reported yet for the selected task(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unreadable Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server sent a question Eddy cannot read. It was declined; check the server&apos;s logs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n case(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Declined a %1 request: Eddy only answers forms and links.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a server first (Server &gt; Add Server...).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Re-running %n case(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Tool Unavailable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server no longer lists the tool %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relaunch %1 with Edits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of the study:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a session in the sidebar first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach Earlier Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose (or create) a session first; &quot;All sessions&quot; already shows every task.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResidualChart</name>
    <message>
        <source>Iteration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to see its residuals.
Select several to compare them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reset Zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every iteration (Home, or right click)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PNG...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the chart as an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save every sample of the shown series</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residuals.png</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1. Choose a folder you can write to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>residuals.csv</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ResultView</name>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Structured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a task to see its result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n value(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Task %1 is still running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1 is waiting for your answer (see the inbox).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool error: the tool ran and reported a problem. The task itself completed; read the message below, fix the arguments and relaunch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completed: the result is stored in Eddy&apos;s database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed (error %1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired: the server forgot this task before it finished; re-run the case.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost: the server does not know this task any more; re-run the case.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(an image Eddy could not decode: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Link: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SampleSeriesModel</name>
    <message>
        <source>x</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SchemaField</name>
    <message>
        <source>%1 must be text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 needs at least %n character(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 allows at most %n character(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 must match the pattern %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an e-mail address like name@example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a full URL such as https://example.com/.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a date as YYYY-MM-DD.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a date and time as YYYY-MM-DDThh:mm:ssZ.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a whole number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a finite number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be greater than %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be at least %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be less than %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be true or false.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be one of: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 needs at least %n item(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 allows at most %n item(s).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1, item %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be JSON of type %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes/no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>group</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SchemaForm</name>
    <message>
        <source>%1 … %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≥ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>≤ %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This tool takes no arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YYYY-MM-DD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YYYY-MM-DDThh:mm:ssZ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pattern: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>comma-separated, e.g. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a, b, c</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1, 2, 3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON, e.g. {&quot;key&quot;: 1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This is not valid JSON; check brackets, quotes and commas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Varied by the sweep</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ServerDialog</name>
    <message>
        <source>Add Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http://127.0.0.1:8080/mcp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Cluster head node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional bearer token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name: %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Supported versions: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capabilities: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks: offered (long-running calls return task handles)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks: not offered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Protocol: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not discovered yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unchanged (type a new token to replace it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State: %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the server&apos;s MCP endpoint as an http:// or https:// URL, e.g. http://127.0.0.1:8080/mcp.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ServerListModel</name>
    <message>
        <source>Connecting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Online</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unreachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backing off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionListModel</name>
    <message>
        <source>All sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every task in the database</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n task(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatusTimeline</name>
    <message>
        <source>No status history yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing %1 · waiting for input %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SweepEditor</name>
    <message>
        <source>Submit Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run Once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Varies as</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Vary a Parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grid (every combination)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latin hypercube</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many cases run on the server at the same time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Concurrency:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Journal every case, then submit them (Ctrl+Return)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call the tool once with the form&apos;s values</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no tools yet: the server is being asked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interval (LHS)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>100, 400, 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values, e.g. 100, 400, 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from, to, step, e.g. 100, 1000, 300</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>min, max, e.g. 100, 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not a number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not one of the choices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: enter the values to try, separated by commas.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: a range needs from, to and step, e.g. 100, 1000, 300.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: an interval needs min and max, e.g. 100, 1000.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is varied twice; keep one row.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a tool first; add a server if the list is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Submit %n Case(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Showing the first %1 of %2 cases.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a tool first.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskMonitor</name>
    <message>
        <source>All Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs Input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show tasks in this state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search parameters, messages, servers... (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server to cancel the selected tasks (Del)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Submit the selected failed or cancelled cases again</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Ask the server to cancel %n running task(s)? Results already computed are lost.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Relaunch with Edits...</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <source>Case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Residual</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ETA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires In</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Latest overall residual parsed from the status message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimated time left at the recent iteration rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the server may forget the task (its TTL); results are stored as soon as they arrive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Case %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · case %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · task %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (cancel requested)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>100 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Workbench for long-running MCP tasks.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database file (default: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User interface language: de or en.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to this MCP server URL (added if new).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never start the bundled eddy-cfd-server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data folder of the bundled server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the bundled CFD server...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local CFD server running at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot Open the Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Eddy could not open %1:
%2

Start Eddy with --db and another file, or restore a backup.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
