// The dependency-closure check, for both install sets of .ci/install-deps (without recommends):
// - the programs (eddy, eddyctl, eddy-cfd-server, eddy-cfd-solve) as a plain configure builds them
//   use only packages named in .ci/packages.txt or their hard dependencies (Depends/Pre-Depends,
//   transitively): the README's first command;
// - this whole build, tests and benchmarks included, uses only packages named in .ci/packages.txt
//   or .ci/packages-tests.txt or their hard dependencies: the README's test command (--tests).
// A fresh Debian 12 root gets exactly that closure, so a package that is here only because something
// recommends it, or because the machine had it anyway, would break the README's commands there.
//
// "Files the build used": the CMake package configs, find modules and pkg-config files CMake read
// (build.ninja's regeneration inputs), every absolute file a compile or link command names (tools,
// libraries), every system header the compiler read (`ninja -t deps`), and the .pc files of the
// pkg-config modules with what they require. Owners come from `dpkg-query -S`, dependencies from
// `dpkg-query -W`.

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Run run(const QString &program, const QStringList &args, const QString &workDir = {})
{
    QProcess p;
    if (!workDir.isEmpty())
        p.setWorkingDirectory(workDir);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(30000)) {
        r.err = QStringLiteral("%1 did not start: %2").arg(program, p.errorString()).toUtf8();
        return r;
    }
    p.closeWriteChannel();
    // Reading as we go: dpkg-query and ninja may write more than a pipe holds.
    while (!p.waitForFinished(100)) {
        if (p.state() == QProcess::NotRunning)
            break;
        r.out += p.readAllStandardOutput();
        r.err += p.readAllStandardError();
    }
    r.out += p.readAllStandardOutput();
    r.err += p.readAllStandardError();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

// The package names in .ci/packages.txt: one a line, '#' starts a comment.
QStringList readPackageList(const QString &path, QString *error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, f.errorString());
        return {};
    }
    QStringList names;
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9][a-z0-9+.-]+$"));
    int lineNo = 0;
    while (!f.atEnd()) {
        ++lineNo;
        QString line = QString::fromUtf8(f.readLine());
        line = line.left(line.indexOf(QLatin1Char('#'))).trimmed();
        if (line.isEmpty())
            continue;
        if (!valid.match(line).hasMatch()) {
            *error = QStringLiteral("%1:%2: '%3' is not one Debian package name").arg(path).arg(lineNo).arg(line);
            return {};
        }
        names << line;
    }
    return names;
}

// "libfoo:amd64 (>= 1.2)" -> "libfoo"
QString dependencyName(QString text)
{
    text = text.trimmed();
    const qsizetype cut = text.indexOf(QRegularExpression(QStringLiteral("[\\s(:\\[]")));
    return cut < 0 ? text : text.left(cut);
}

// Depends-style field -> groups of alternatives.
QList<QStringList> parseRelations(const QString &field)
{
    QList<QStringList> groups;
    for (const QString &group : field.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        QStringList alternatives;
        for (const QString &alt : group.split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
            const QString name = dependencyName(alt);
            if (!name.isEmpty())
                alternatives << name;
        }
        if (!alternatives.isEmpty())
            groups << alternatives;
    }
    return groups;
}

struct Package
{
    bool essential = false; // Essential: yes or Priority: required: in every debootstrap root
    QList<QStringList> hard; // Pre-Depends and Depends
    QList<QStringList> soft; // Recommends
};

bool isUnder(const QString &path, const QString &dir)
{
    return path == dir || path.startsWith(dir + QLatin1Char('/'));
}

} // namespace

class tst_DepClosure final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void relationParsing();
    void programsUseOnlyTheRunSet();
    void everyUsedPackageIsInstalledByInstallDeps();
    void cleanupTestCase();

private:
    void addUsed(const QString &path, const QString &why);
    void collectFromCache(const QHash<QString, QString> &cache);
    void collectFromNinjaFiles(const QString &buildDir);
    void collectFromNinjaDeps(const QStringList &objects = {});
    void collectProgramInputs(QStringList *objects);
    void collectPkgConfig(const QString &module, const QString &why, QSet<QString> &seen);
    void checkClosure(const QStringList &listNames);

    QString m_sourceDir;
    QString m_buildDir;
    QString m_plainDir; // a plain configure (no -DEDDY_TESTS) of the same sources
    QString m_launcher;
    QMap<QString, QString> m_used; // file -> why the build used it
    QHash<QString, QString> m_cache;
};

// CMakeCache.txt's entries, NAME -> value.
QHash<QString, QString> readCache(const QString &buildDir)
{
    QHash<QString, QString> entries;
    QFile cache(buildDir + QStringLiteral("/CMakeCache.txt"));
    if (!cache.open(QIODevice::ReadOnly | QIODevice::Text))
        return entries;
    static const QRegularExpression entry(QStringLiteral("^([^#/][^:=]*):[A-Z]+=(.*)$"));
    while (!cache.atEnd()) {
        const auto m = entry.match(QString::fromUtf8(cache.readLine()).trimmed());
        if (m.hasMatch())
            entries.insert(m.captured(1), m.captured(2));
    }
    return entries;
}

void tst_DepClosure::initTestCase()
{
    m_sourceDir = QDir(QStringLiteral(EDDY_SOURCE_TREE)).canonicalPath();
    m_buildDir = QDir(QStringLiteral(EDDY_BUILD_TREE)).canonicalPath();
    m_cache = readCache(m_buildDir);
    QVERIFY2(!m_cache.isEmpty(), qPrintable(m_buildDir + QStringLiteral("/CMakeCache.txt cannot be read")));
    QVERIFY2(m_cache.value(QStringLiteral("CMAKE_GENERATOR")).contains(QLatin1String("Ninja")),
             "the check reads build.ninja and ninja's dependency log: configure with -G Ninja");
    // A compiler launcher (ccache) is the developer's choice, not something the build needs.
    m_launcher = m_cache.value(QStringLiteral("CMAKE_CXX_COMPILER_LAUNCHER"));
}

void tst_DepClosure::relationParsing()
{
    const auto groups = parseRelations(QStringLiteral(
        "libc6 (>= 2.34), libqt6core6:any (= 6.4.2+dfsg-10) | libqt6core6t64, perl:any, foo [amd64]"));
    QCOMPARE(groups.size(), 4);
    QCOMPARE(groups.at(0), QStringList{QStringLiteral("libc6")});
    QCOMPARE(groups.at(1), (QStringList{QStringLiteral("libqt6core6"), QStringLiteral("libqt6core6t64")}));
    QCOMPARE(groups.at(2), QStringList{QStringLiteral("perl")});
    QCOMPARE(groups.at(3), QStringList{QStringLiteral("foo")});
    QString error;
    const QString list = QDir::temp().filePath(QStringLiteral("tst_depclosure_list.txt"));
    QFile f(list);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("# comment\n\n  cmake   # the build system\nqt6-base-dev\n");
    f.close();
    QCOMPARE(readPackageList(list, &error), (QStringList{QStringLiteral("cmake"), QStringLiteral("qt6-base-dev")}));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("cmake ninja-build\n");
    f.close();
    QVERIFY(readPackageList(list, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("not one Debian package name")), qPrintable(error));
    QFile::remove(list);
}

void tst_DepClosure::addUsed(const QString &path, const QString &why)
{
    if (path.isEmpty() || isUnder(path, m_sourceDir) || isUnder(path, m_buildDir)
        || (!m_plainDir.isEmpty() && isUnder(path, m_plainDir)) || path == m_launcher)
        return;
    const QFileInfo fi(path);
    if (!fi.exists() || fi.isDir())
        return;
    if (!m_used.contains(path))
        m_used.insert(path, why);
}

// find_package(X) leaves X_DIR; the config file in it is what CMake loaded. (build.ninja's
// regeneration inputs list them too; this keeps the reason readable.)
void tst_DepClosure::collectFromCache(const QHash<QString, QString> &cache)
{
    for (auto it = cache.cbegin(); it != cache.cend(); ++it) {
        if (!it.key().endsWith(QLatin1String("_DIR")) || it.value().endsWith(QLatin1String("NOTFOUND")))
            continue;
        const QString name = it.key().chopped(4);
        const QDir dir(it.value());
        for (const QString &file : {name + QStringLiteral("Config.cmake"), name.toLower() + QStringLiteral("-config.cmake"),
                                    name + QStringLiteral("-config.cmake")}) {
            if (dir.exists(file))
                addUsed(QFileInfo(dir.filePath(file)).absoluteFilePath(), QStringLiteral("find_package(%1)").arg(name));
        }
    }
    QSet<QString> seen;
    for (auto it = cache.cbegin(); it != cache.cend(); ++it) {
        if (it.key().endsWith(QLatin1String("_MODULE_NAME")) && !it.value().isEmpty())
            collectPkgConfig(it.value(), QStringLiteral("pkg-config module %1").arg(it.value()), seen);
    }
}

void tst_DepClosure::collectPkgConfig(const QString &module, const QString &why, QSet<QString> &seen)
{
    if (seen.contains(module))
        return;
    seen.insert(module);
    const Run path = run(QStringLiteral("pkg-config"), {QStringLiteral("--path"), module});
    QVERIFY2(path.exitCode == 0, qPrintable(QStringLiteral("pkg-config --path %1: %2").arg(module, QString::fromUtf8(path.err))));
    addUsed(QString::fromUtf8(path.out).trimmed(), why);
    const Run req = run(QStringLiteral("pkg-config"), {QStringLiteral("--print-requires"), QStringLiteral("--print-requires-private"), module});
    QVERIFY2(req.exitCode == 0, qPrintable(QString::fromUtf8(req.err)));
    for (const QString &line : QString::fromUtf8(req.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString required = line.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty);
        if (!required.isEmpty())
            collectPkgConfig(required, why + QStringLiteral(" (requires %1)").arg(required), seen);
    }
}

// Absolute system paths in the Ninja files: compilers and Qt's tools, the libraries each link
// names, and (as regeneration inputs of build.ninja) every CMake file configure read.
void tst_DepClosure::collectFromNinjaFiles(const QString &buildDir)
{
    static const QRegularExpression sysPath(QStringLiteral("(?<![\\w./+-])(/(?:usr|opt|lib|lib64|bin|sbin|etc)/[^\\s;:\"'$|]+)"));
    for (const QString &name : {QStringLiteral("build.ninja"), QStringLiteral("CMakeFiles/rules.ninja")}) {
        QFile f(buildDir + QLatin1Char('/') + name);
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        const QString text = QString::fromUtf8(f.readAll());
        for (auto it = sysPath.globalMatch(text); it.hasNext();)
            addUsed(QDir::cleanPath(it.next().captured(1)), QStringLiteral("named in %1").arg(name));
    }
}

// Every header the compiler read, from ninja's dependency log (filled by the build): of every object,
// or of the objects given.
void tst_DepClosure::collectFromNinjaDeps(const QStringList &objects)
{
    const QString ninja = m_cache.value(QStringLiteral("CMAKE_MAKE_PROGRAM"), QStringLiteral("ninja"));
    const Run deps = run(ninja, QStringList{QStringLiteral("-t"), QStringLiteral("deps")} + objects, m_buildDir);
    QVERIFY2(deps.exitCode == 0, qPrintable(QString::fromUtf8(deps.err)));
    int headers = 0;
    QSet<QString> seen;
    for (const QByteArray &line : deps.out.split('\n')) {
        if (!line.startsWith("    /"))
            continue;
        const QString path = QDir::cleanPath(QString::fromUtf8(line.trimmed()));
        if (seen.contains(path))
            continue;
        seen.insert(path);
        ++headers;
        addUsed(path, QStringLiteral("#included by the build"));
    }
    qInfo("%d system headers in ninja's dependency log", headers);
}

// The system files the program targets are built from (ninja -t inputs: tools, libraries), and the
// objects among their inputs.
void tst_DepClosure::collectProgramInputs(QStringList *objects)
{
    const QString ninja = m_cache.value(QStringLiteral("CMAKE_MAKE_PROGRAM"), QStringLiteral("ninja"));
    const QStringList programs{QStringLiteral("app/eddy"), QStringLiteral("app/cli/eddyctl"),
                               QStringLiteral("server/eddy-cfd-server"), QStringLiteral("server/eddy-cfd-solve")};
    const Run inputs = run(ninja, QStringList{QStringLiteral("-t"), QStringLiteral("inputs")} + programs, m_buildDir);
    QVERIFY2(inputs.exitCode == 0, qPrintable(QString::fromUtf8(inputs.err)));
    for (const QString &line : QString::fromUtf8(inputs.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.endsWith(QLatin1String(".o")))
            *objects << line;
        else if (line.startsWith(QLatin1Char('/')))
            addUsed(QDir::cleanPath(line), QStringLiteral("an input of the programs"));
    }
    QVERIFY2(objects->size() > 50, qPrintable(QStringLiteral("ninja -t inputs found only %1 objects of %2")
                                                  .arg(objects->size()).arg(programs.join(QLatin1String(", ")))));
}

// The README's first command: a plain configure (what it reads) and the programs' compile and link
// inputs in this build (the same sources and flags).
void tst_DepClosure::programsUseOnlyTheRunSet()
{
    m_used.clear();
    m_plainDir = QDir::temp().filePath(QStringLiteral("tst_depclosure-plain-%1").arg(QCoreApplication::applicationPid()));
    QDir(m_plainDir).removeRecursively();
    const QString cmake = m_cache.value(QStringLiteral("CMAKE_COMMAND"), QStringLiteral("cmake"));
    const Run configure = run(cmake, {QStringLiteral("-S"), m_sourceDir, QStringLiteral("-B"), m_plainDir,
                                      QStringLiteral("-G"), m_cache.value(QStringLiteral("CMAKE_GENERATOR")),
                                      QStringLiteral("-DCMAKE_MAKE_PROGRAM=") + m_cache.value(QStringLiteral("CMAKE_MAKE_PROGRAM"))});
    QVERIFY2(configure.exitCode == 0, qPrintable(QStringLiteral("a plain configure failed:\n%1%2")
                                                     .arg(QString::fromUtf8(configure.out), QString::fromUtf8(configure.err))));
    const QHash<QString, QString> plainCache = readCache(m_plainDir);
    QVERIFY2(plainCache.value(QStringLiteral("EDDY_TESTS")) == QLatin1String("OFF"),
             "a plain configure should leave EDDY_TESTS off: the README's first command builds no test");
    QVERIFY2(!QFile::exists(m_plainDir + QStringLiteral("/tests")), "a plain configure set up the tests");
    collectFromCache(plainCache);
    collectFromNinjaFiles(m_plainDir);
    QStringList objects;
    collectProgramInputs(&objects);
    collectFromNinjaDeps(objects);
    if (QTest::currentTestFailed())
        return;
    checkClosure({QStringLiteral("packages.txt")});
}

// The README's test command: this whole build, tests and benchmarks included.
void tst_DepClosure::everyUsedPackageIsInstalledByInstallDeps()
{
    m_used.clear();
    collectFromCache(m_cache);
    collectFromNinjaFiles(m_buildDir);
    collectFromNinjaDeps();
    if (QTest::currentTestFailed())
        return;
    checkClosure({QStringLiteral("packages.txt"), QStringLiteral("packages-tests.txt")});
}

void tst_DepClosure::cleanupTestCase()
{
    if (!m_plainDir.isEmpty())
        QDir(m_plainDir).removeRecursively();
}

// Every file in m_used comes from a package in the closure of the named lists (in .ci/).
void tst_DepClosure::checkClosure(const QStringList &listNames)
{
    QVERIFY(!m_used.isEmpty());
    const QString listsText = QStringLiteral(".ci/") + listNames.join(QLatin1String(" + .ci/"));

    // Owners of the used files. A path dpkg does not know may be the /usr-merged alias of one it
    // knows (/lib/x vs /usr/lib/x) or a symlink to one.
    QHash<QString, QStringList> owners; // file -> packages
    auto query = [&owners](const QStringList &paths) {
        for (qsizetype i = 0; i < paths.size(); i += 200) {
            const Run r = run(QStringLiteral("dpkg-query"), QStringList{QStringLiteral("-S")} + paths.mid(i, 200));
            for (const QString &line : QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                if (line.startsWith(QLatin1String("diversion by")))
                    continue;
                const qsizetype colon = line.indexOf(QLatin1String(": /"));
                if (colon < 0)
                    continue;
                QStringList pkgs;
                for (const QString &p : line.left(colon).split(QLatin1Char(','), Qt::SkipEmptyParts))
                    pkgs << dependencyName(p);
                owners[line.mid(colon + 2)] += pkgs;
            }
        }
    };
    const QStringList used = m_used.keys();
    query(used);
    QHash<QString, QString> alias; // used path -> the path dpkg knows
    QStringList retry;
    for (const QString &path : used) {
        if (owners.contains(path))
            continue;
        QStringList candidates{QFileInfo(path).canonicalFilePath()};
        if (path.startsWith(QLatin1String("/usr/")))
            candidates << path.mid(4);
        else
            candidates << QStringLiteral("/usr") + path;
        for (const QString &c : candidates) {
            if (!c.isEmpty() && c != path) {
                alias.insert(path, c);
                retry << c;
                break;
            }
        }
    }
    query(retry);

    // The installed packages and their relations.
    const Run db = run(QStringLiteral("dpkg-query"),
                       {QStringLiteral("-W"), QStringLiteral("-f"),
                        QStringLiteral("${db:Status-Abbrev}\t${Package}\t${Essential}\t${Priority}\t${Provides}\t"
                                       "${Pre-Depends}\t${Depends}\t${Recommends}\n")});
    QVERIFY2(db.exitCode == 0, qPrintable(QString::fromUtf8(db.err)));
    QHash<QString, Package> installed;
    QHash<QString, QStringList> providers; // virtual name -> installed packages providing it
    for (const QString &line : QString::fromUtf8(db.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.split(QLatin1Char('\t'));
        if (f.size() < 8 || !f.at(0).startsWith(QLatin1String("ii")))
            continue;
        Package p;
        p.essential = f.at(2) == QLatin1String("yes") || f.at(3) == QLatin1String("required");
        p.hard = parseRelations(f.at(5)) + parseRelations(f.at(6));
        p.soft = parseRelations(f.at(7));
        installed.insert(f.at(1), p);
        for (const auto &group : parseRelations(f.at(4)))
            providers[group.first()] << f.at(1);
    }
    auto resolve = [&](const QString &name) {
        QStringList r = providers.value(name);
        if (installed.contains(name))
            r.prepend(name);
        return r;
    };

    QStringList listed;
    for (const QString &name : listNames) {
        QString error;
        listed += readPackageList(m_sourceDir + QStringLiteral("/.ci/") + name, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    QStringList notInstalled;
    for (const QString &name : listed) {
        if (!installed.contains(name))
            notInstalled << name;
    }
    QVERIFY2(notInstalled.isEmpty(),
             qPrintable(QStringLiteral("listed in %1 but not installed: %2; run .ci/install-deps --tests")
                            .arg(listsText, notInstalled.join(QLatin1String(", ")))));

    // The closure apt installs with --no-install-recommends: of "a | b" it takes a (when a is
    // installed here; otherwise whichever alternative is).
    QHash<QString, QString> closure; // package -> the chain that pulls it in
    QStringList queue;
    for (const QString &name : listed) {
        closure.insert(name, QStringLiteral("listed"));
        queue << name;
    }
    for (auto it = installed.cbegin(); it != installed.cend(); ++it) {
        if (it->essential && !closure.contains(it.key())) {
            closure.insert(it.key(), QStringLiteral("essential/required"));
            queue << it.key();
        }
    }
    while (!queue.isEmpty()) {
        const QString name = queue.takeFirst();
        for (const QStringList &group : installed.value(name).hard) {
            QStringList chosen;
            for (const QString &alt : group) {
                chosen = resolve(alt);
                if (!chosen.isEmpty())
                    break;
            }
            for (const QString &dep : chosen) {
                if (!closure.contains(dep)) {
                    closure.insert(dep, name);
                    queue << dep;
                }
            }
        }
    }

    QMap<QString, QStringList> missing; // package -> files the build used from it
    QStringList unowned;
    for (const QString &path : used) {
        const QStringList pkgs = owners.value(path, owners.value(alias.value(path)));
        if (pkgs.isEmpty()) {
            unowned << QStringLiteral("%1 (%2)").arg(path, m_used.value(path));
            continue;
        }
        bool covered = false;
        for (const QString &p : pkgs)
            covered = covered || closure.contains(p);
        if (!covered)
            missing[pkgs.first()] << QStringLiteral("%1 (%2)").arg(path, m_used.value(path));
    }

    QStringList problems;
    for (auto it = missing.cbegin(); it != missing.cend(); ++it) {
        QStringList recommendedBy;
        for (auto c = closure.cbegin(); c != closure.cend(); ++c) {
            for (const QStringList &group : installed.value(c.key()).soft) {
                if (group.contains(it.key()))
                    recommendedBy << c.key();
            }
        }
        QString why = recommendedBy.isEmpty()
                          ? QStringLiteral("no listed package depends on it")
                          : QStringLiteral("%1 only recommend%2 it, and install-deps skips recommends")
                                .arg(recommendedBy.join(QLatin1String(", ")),
                                     recommendedBy.size() == 1 ? QStringLiteral("s") : QString());
        QStringList files = it.value();
        const qsizetype more = files.size() - 3;
        files = files.mid(0, 3);
        if (more > 0)
            files << QStringLiteral("and %1 more").arg(more);
        problems << QStringLiteral("%1: the build uses it but a fresh root would not have it (%2); add it to "
                                   "%3. Used: %4")
                        .arg(it.key(), why, listNames.size() == 1 ? listsText
                                                      : QStringLiteral(".ci/packages-tests.txt (.ci/packages.txt "
                                                                       "if the programs use it)"),
                             files.join(QLatin1String("; ")));
    }
    if (!unowned.isEmpty())
        problems << QStringLiteral("files the build used that no Debian package installed (a fresh root "
                                   "would not have them): %1")
                        .arg(unowned.join(QLatin1String("; ")));
    qInfo("%lld files used, from %lld packages; closure of %s: %lld packages", qlonglong(used.size()),
          qlonglong([&] {
              QSet<QString> s;
              for (const auto &l : std::as_const(owners))
                  for (const QString &p : l)
                      s.insert(p);
              return s.size();
          }()),
          qPrintable(listsText), qlonglong(closure.size()));
    QVERIFY2(problems.isEmpty(), qPrintable(QLatin1Char('\n') + problems.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(tst_DepClosure)
#include "tst_depclosure.moc"
