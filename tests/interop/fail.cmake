# Stands in for an interop test whose prerequisites are missing: the test fails and says why.
message(FATAL_ERROR "${MESSAGE}")
