// SSE parser: the same byte stream must give the same events whether it arrives whole, split at
// points the fuzzer picks, or one byte at a time; no field may keep a line break.
#include "app/net/sseparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using Eddy::Net::SseEvent;
using Eddy::Net::SseParser;

namespace {

bool sameEvents(const std::vector<SseEvent> &a, const std::vector<SseEvent> &b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id
            || a[i].retryMs != b[i].retryMs)
            return false;
    }
    return true;
}

void append(std::vector<SseEvent> &to, std::vector<SseEvent> &&from)
{
    for (auto &e : from)
        to.push_back(std::move(e));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The first byte says how many split points follow (0-15); each split byte is a fraction of
    // the stream. The rest is the stream.
    if (size < 1)
        return 0;
    const size_t splits = std::min<size_t>(data[0] % 16, size - 1);
    std::vector<size_t> fractions(data + 1, data + 1 + splits);
    const QByteArray stream(reinterpret_cast<const char *>(data + 1 + splits),
                            qsizetype(size - 1 - splits));

    SseParser whole;
    const std::vector<SseEvent> expected = whole.feed(stream);

    std::vector<qsizetype> cuts;
    for (size_t f : fractions)
        cuts.push_back(qsizetype(f) * stream.size() / 255);
    std::sort(cuts.begin(), cuts.end());
    SseParser split;
    std::vector<SseEvent> got;
    qsizetype at = 0;
    for (qsizetype cut : cuts) {
        append(got, split.feed(stream.mid(at, cut - at)));
        at = cut;
    }
    append(got, split.feed(stream.mid(at)));
    FUZZ_CHECK(sameEvents(expected, got));
    FUZZ_CHECK(split.lastEventId() == whole.lastEventId());
    FUZZ_CHECK(split.retryMs() == whole.retryMs());

    if (stream.size() <= 1024) {
        SseParser bytewise;
        std::vector<SseEvent> one;
        for (qsizetype i = 0; i < stream.size(); ++i)
            append(one, bytewise.feed(stream.mid(i, 1)));
        FUZZ_CHECK(sameEvents(expected, one));
    }

    for (const SseEvent &e : expected) {
        FUZZ_CHECK(!e.event.isEmpty());
        FUZZ_CHECK(!e.event.contains('\n') && !e.event.contains('\r'));
        FUZZ_CHECK(!e.data.contains('\r')); // lines are joined with '\n' only
        FUZZ_CHECK(!e.id.contains('\n') && !e.id.contains('\r') && !e.id.contains('\0'));
        FUZZ_CHECK(!e.retryMs || *e.retryMs >= 0);
    }

    // reset() forgets everything: the stream parses the same again.
    whole.reset();
    FUZZ_CHECK(sameEvents(expected, whole.feed(stream)));
    return 0;
}
