# The libFuzzer targets (clang only). EDDY_ROOT is the repository root. Only the sources under
# test are compiled in, instrumented for coverage and ASan/UBSan; nothing else of Eddy is built.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "The fuzzers need clang (libFuzzer): configure with CC=clang "
                        "CXX=clang++, or leave EDDY_FUZZ off.")
endif()
set(EDDY_FUZZ_TARGETS fuzz_jsonrpc fuzz_sse fuzz_progress fuzz_schema fuzz_taskreply
    fuzz_pollscanner)
set(app ${EDDY_ROOT}/app)
set(fuzz_jsonrpc_SOURCES fuzz_jsonrpc.cpp ${app}/mcp/taskstate.cpp ${app}/mcp/rawjson.cpp ${app}/mcp/taskstatus.cpp
    ${app}/mcp/error.cpp ${app}/mcp/headers.cpp ${app}/mcp/tool.cpp ${app}/net/sseparser.cpp)
set(fuzz_sse_SOURCES fuzz_sse.cpp ${app}/net/sseparser.cpp)
set(fuzz_progress_SOURCES fuzz_progress.cpp ${app}/monitor/progressparser.cpp)
set(fuzz_schema_SOURCES fuzz_schema.cpp ${EDDY_ROOT}/models/schemafield.cpp)
set(fuzz_taskreply_SOURCES fuzz_taskreply.cpp ${app}/mcp/jsonscanner.cpp ${app}/mcp/taskreplyparser.cpp
    ${app}/mcp/taskstate.cpp ${app}/mcp/rawjson.cpp ${app}/mcp/taskstatus.cpp)
set(fuzz_pollscanner_SOURCES fuzz_pollscanner.cpp ${EDDY_ROOT}/server/pollscanner.cpp)
foreach(target ${EDDY_FUZZ_TARGETS})
    list(TRANSFORM ${target}_SOURCES PREPEND ${EDDY_ROOT}/tests/fuzz/ REGEX "^fuzz_")
    add_executable(${target} ${${target}_SOURCES})
    set_target_properties(${target} PROPERTIES AUTOMOC OFF)
    target_include_directories(${target} PRIVATE ${EDDY_ROOT})
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined
                           -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(${target} PRIVATE Qt6::Core nlohmann_json::nlohmann_json)
endforeach()
add_custom_target(fuzzers DEPENDS ${EDDY_FUZZ_TARGETS})
