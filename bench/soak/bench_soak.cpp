// bench_soak: the helper of bench/soak/soak.sh (docs/soak.md).
//   bench_soak query DB SQL           runs SQL on the SQLite file DB (read-only, waits out
//                                     writers) and prints each row tab-separated
//   bench_soak hostile PORT_FILE SECONDS
//                                     a hostile MCP server on 127.0.0.1:0 (tests/hostile): writes
//                                     its URL to PORT_FILE, then answers every tasks/get of the
//                                     task it creates with a rotating misbehaviour for SECONDS,
//                                     then "completed"; exits once the client has seen that (or
//                                     after another 120 s, saying so)
//   bench_soak report DIR             reads DIR/samples.csv, DIR/events.csv, DIR/stall.txt and
//                                     DIR/final.txt; writes DIR/soak.svg and DIR/verdict.txt and
//                                     prints the verdict as RESULT lines (bench/README.md)
#include "bench/soak/soakreport.h"
#include "tests/hostile/hostileserver.h"

#include <QCoreApplication>
#include <QFile>
#include <QTimer>

#include <sqlite3.h>

#include <cstdio>
#include <memory>

using namespace Eddy;
using nlohmann::json;

namespace {

int query(const char *path, const char *sql)
{
    sqlite3 *raw = nullptr;
    if (sqlite3_open_v2(path, &raw, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        std::fprintf(stderr, "bench_soak query: cannot open %s: %s\n", path, raw ? sqlite3_errmsg(raw) : "out of memory");
        sqlite3_close(raw);
        return 1;
    }
    const std::unique_ptr<sqlite3, decltype(&sqlite3_close)> db(raw, &sqlite3_close);
    sqlite3_busy_timeout(db.get(), 10000);
    const char *tail = sql;
    while (tail && *tail) {
        sqlite3_stmt *stmt = nullptr;
        if (sqlite3_prepare_v2(db.get(), tail, -1, &stmt, &tail) != SQLITE_OK) {
            std::fprintf(stderr, "bench_soak query: %s\n", sqlite3_errmsg(db.get()));
            return 1;
        }
        if (!stmt)
            break;
        int rc;
        while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
            for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
                const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(stmt, i));
                std::printf("%s%s", i ? "\t" : "", text ? text : "");
            }
            std::printf("\n");
        }
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE) {
            std::fprintf(stderr, "bench_soak query: %s\n", sqlite3_errmsg(db.get()));
            return 1;
        }
    }
    return 0;
}

// One task, polled through a burst of misbehaviours the client must survive without losing it:
// rate limiting, garbage, a dropped connection, an answer about another task, a slow drip.
int hostile(const QString &portFile, int seconds)
{
    Test::HostileServer server;
    if (!server.listen()) {
        std::fprintf(stderr, "bench_soak hostile: cannot listen on 127.0.0.1\n");
        return 1;
    }
    server.taskId = "soak-hostile-" + QByteArray::number(QCoreApplication::applicationPid()).toStdString()
                    + "-0123456789abcdef";
    bool ended = false;
    int seenCompleted = 0;
    QTimer::singleShot(seconds * 1000, [&] { ended = true; });
    server.setFault([&](Test::HostileServer &s, const Test::HostileServer::Call &call) {
        if (call.method == "tools/call" && call.count == 1) { // a gateway that lost the call
            call.socket->write(Test::HostileServer::http("bad gateway", 502, "text/plain"));
            return true;
        }
        if (call.method != "tasks/get")
            return false;
        if (ended) {
            json t = s.task("completed");
            t["resultType"] = "complete";
            t["result"] = {{"content", {{{"type", "text"}, {"text", "survived the burst"}}}}, {"isError", false}};
            call.socket->write(Test::HostileServer::http(Test::HostileServer::rpcResult(call.id, t)));
            if (++seenCompleted == 1)
                QTimer::singleShot(2000, qApp, &QCoreApplication::quit);
            return true;
        }
        json working = s.task("working");
        working["resultType"] = "complete";
        working["statusMessage"] = "misbehaving on purpose";
        working["pollIntervalMs"] = 1000;
        switch (call.count % 6) {
        case 1:
            call.socket->write(Test::HostileServer::http("slow down", 503, "text/plain", {{"Retry-After", "1"}}));
            break;
        case 2:
            call.socket->write(Test::HostileServer::http("{\"jsonrpc\":\"2.0\",\"id\":"));
            break;
        case 3:
            call.socket->abort();
            break;
        case 4: {
            json other = working;
            other["taskId"] = "another-task-0123456789abcdef";
            call.socket->write(Test::HostileServer::http(Test::HostileServer::rpcResult(call.id, other)));
            break;
        }
        case 5:
            Test::HostileServer::drip(call.socket,
                                      Test::HostileServer::http(Test::HostileServer::rpcResult(call.id, working)), 10);
            break;
        default:
            call.socket->write(Test::HostileServer::http(Test::HostileServer::rpcResult(call.id, working)));
            break;
        }
        return true;
    });
    QFile out(portFile);
    if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        std::fprintf(stderr, "bench_soak hostile: cannot write %s\n", qPrintable(portFile));
        return 1;
    }
    out.write(server.url().toString().toUtf8() + '\n');
    out.close();
    QTimer::singleShot((seconds + 120) * 1000, [&] {
        std::fprintf(stderr, "bench_soak hostile: the client did not poll the completed task within 120 s "
                             "after the burst (%d tasks/get in all); stopping\n",
                     server.count("tasks/get"));
        QCoreApplication::exit(3);
    });
    const int rc = QCoreApplication::exec();
    std::printf("hostile: %d tools/call, %d tasks/get, %d connections\n", server.count("tools/call"),
                server.count("tasks/get"), server.connections());
    return rc;
}

void usage()
{
    std::fprintf(stderr, "usage: bench_soak query DB SQL | hostile PORT_FILE SECONDS | report DIR\n"
                         "(run by bench/soak/soak.sh; see docs/soak.md)\n");
}

} // namespace

int main(int argc, char **argv)
{
    const QByteArray what = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (what == "query" && argc == 4)
        return query(argv[2], argv[3]);
    if (what == "hostile" && argc == 4) {
        QCoreApplication app(argc, argv);
        return hostile(QString::fromLocal8Bit(argv[2]), std::max(1, std::atoi(argv[3])));
    }
    if (what == "report" && argc == 3) {
        QCoreApplication app(argc, argv);
        return Bench::soakReport(QString::fromLocal8Bit(argv[2]));
    }
    usage();
    return 2;
}
