#pragma once

// main() for a window test that must run on a screen of a given size: the offscreen plugin's
// default screen is 800x600, so the test gets one of WIDTH x HEIGHT (logical DPI 96, scale 1)
// through a config file the plugin reads at start.
#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace Eddy::Test {

// Points QT_QPA_PLATFORM at an offscreen screen of width x height, described in a file in `dir`
// (which must outlive the QApplication). False when the file cannot be written.
inline bool useOffscreenScreen(const QTemporaryDir &dir, int width, int height)
{
    const QString config = dir.filePath(QStringLiteral("screen.json"));
    QFile f(config);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(QStringLiteral(R"({"screens": [{"name": "screen-%1x%2", "x": 0, "y": 0, "width": %1,
                "height": %2, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})")
                .arg(width)
                .arg(height)
                .toUtf8());
    f.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + config.toLocal8Bit());
    return true;
}

} // namespace Eddy::Test

// The test's main(): TestClass run on an offscreen screen of WIDTH x HEIGHT.
#define EDDY_TEST_MAIN_ON_SCREEN(TestClass, WIDTH, HEIGHT)                                        \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        QTemporaryDir dir;                                                                         \
        if (!Eddy::Test::useOffscreenScreen(dir, WIDTH, HEIGHT))                                   \
            return 2;                                                                              \
        QApplication app(argc, argv);                                                              \
        TestClass test;                                                                            \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return QTest::qExec(&test, argc, argv);                                                    \
    }
