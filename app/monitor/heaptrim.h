#pragma once

// Once a minute, gives the heap's free pages back to the system (glibc's malloc_trim). The
// window and eddyctl watch run for days; what they free (a takeover's thousands of rows, a
// sweep's report) leaves holes between live blocks that glibc keeps, so their RSS crept while
// their heap stayed flat (bench/soak: a watch holding 7,300 tasks had a 19 MB heap and 68 MB of
// RSS; one malloc_trim brought it to 48 MB). docs/soak.md.

#include <QObject>
#include <QTimer>

namespace Eddy::Monitor {

class HeapTrim final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HeapTrim)

public:
    explicit HeapTrim(QObject *parent = nullptr);

private:
    QTimer m_timer{this};
};

} // namespace Eddy::Monitor
