# Runs the fault suites under AddressSanitizer + UndefinedBehaviorSanitizer: configures a nested
# build with -DEDDY_SANITIZE=ON, builds only the test targets (and the server they start), and
# runs them with leaks detected and any finding fatal. Called by the "sanitize" ctest test with
# -DSOURCE_DIR= -DBINARY_DIR= -DGENERATOR= -DTARGETS=a;b -DLAUNCHER= (optional, e.g. ccache).
foreach(v SOURCE_DIR BINARY_DIR GENERATOR TARGETS)
    if(NOT DEFINED ${v})
        message(FATAL_ERROR "sanitize.cmake needs -D${v}=...")
    endif()
endforeach()
string(REPLACE "," ";" TARGETS "${TARGETS}")

set(configure_args -S ${SOURCE_DIR} -B ${BINARY_DIR} -G ${GENERATOR} -DEDDY_SANITIZE=ON -DEDDY_TESTS=ON
    -DCMAKE_BUILD_TYPE=Debug)
if(LAUNCHER)
    list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
string(TIMESTAMP t0 "%s")
execute_process(COMMAND ${CMAKE_COMMAND} ${configure_args} RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the sanitizer build in ${BINARY_DIR} failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BINARY_DIR} --target ${TARGETS} eddy-cfd-server -j2
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building ${TARGETS} with -DEDDY_SANITIZE=ON failed (${rc})")
endif()
string(TIMESTAMP t1 "%s")
math(EXPR build_s "${t1} - ${t0}")
message(STATUS "sanitizer build: ${build_s} s")

list(JOIN TARGETS "|" regex)
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env
            "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0"
            "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1"
            "LSAN_OPTIONS=suppressions=${SOURCE_DIR}/tests/hostile/lsan.supp:print_suppressions=0"
            ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -R "^(${regex})$" --output-on-failure --timeout 900
    RESULT_VARIABLE rc)
string(TIMESTAMP t2 "%s")
math(EXPR run_s "${t2} - ${t1}")
message(STATUS "sanitizer run: ${run_s} s")
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "a suite failed under ASan/UBSan (see above)")
endif()
