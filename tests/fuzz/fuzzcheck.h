#pragma once

#include <cstdio>
#include <cstdlib>

// An invariant of a fuzz target: on failure print where and why, then abort so libFuzzer keeps
// the input as a crash reproducer.
#define FUZZ_CHECK(cond)                                                                          \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            std::fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond);      \
            std::abort();                                                                         \
        }                                                                                         \
    } while (false)
