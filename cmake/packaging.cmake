# Installation layout and the two Debian packages, built from the normal build with
#   cmake --build build && (cd build && cpack -G DEB)
#   eddy             eddy (GUI) + eddyctl, desktop file, icons, AppStream metadata, man pages
#   eddy-cfd-server  the reference server, its man page, a systemd system unit and a user unit
# Included from the top-level CMakeLists.txt after the targets exist. The executables' install()
# rules sit next to their targets (app/gui.cmake, app/cli/, server/); the rest is here.

set(EDDY_PACKAGING_DIR ${PROJECT_SOURCE_DIR}/resources/packaging)
# The project has no mailing address yet: a placeholder on a reserved domain until it does.
set(EDDY_DEB_MAINTAINER "Eddy maintainers <maintainers@eddy.example.org>" CACHE STRING
    "Maintainer field of the .deb packages and their changelogs")

# --- man pages from --help (help2man), gzipped as Debian wants them --------------------------
find_program(EDDY_HELP2MAN help2man)
find_program(EDDY_GZIP gzip)
set(EDDY_MAN_DIR ${PROJECT_BINARY_DIR}/man)
set(eddy_man_pages)
# eddy_man_page(<target> <section title> <one-line description> <component>)
function(eddy_man_page target description component)
    if(NOT TARGET ${target})
        return()
    endif()
    if(NOT EDDY_HELP2MAN OR NOT EDDY_GZIP)
        message(FATAL_ERROR "help2man and gzip build the man pages: run .ci/install-deps")
    endif()
    set(page ${EDDY_MAN_DIR}/${target}.1)
    # The C locale and HOME=~ keep the pages English and free of the builder's paths (eddy's
    # --help names the default database under the home folder). The server has no --version.
    add_custom_command(OUTPUT ${page}.gz
        COMMAND ${CMAKE_COMMAND} -E make_directory ${EDDY_MAN_DIR}
        COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen LC_ALL=C.UTF-8 LANG=C.UTF-8
                LANGUAGE= "HOME=~" XDG_DATA_HOME= XDG_CONFIG_HOME= XDG_STATE_HOME=
                ${EDDY_HELP2MAN} --no-info --section=1 "--name=${description}"
                "--version-string=${PROJECT_VERSION}" --output=${page} $<TARGET_FILE:${target}>
        COMMAND ${EDDY_GZIP} -9nf ${page}
        DEPENDS ${target}
        COMMENT "Generating the man page of ${target}"
        VERBATIM)
    install(FILES ${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT ${component})
    set(eddy_man_pages ${eddy_man_pages} ${page}.gz PARENT_SCOPE)
endfunction()
eddy_man_page(eddy "workbench for long-running MCP tasks" gui)
eddy_man_page(eddyctl "script Eddy's MCP servers, tasks and sweeps from the shell" gui)
eddy_man_page(eddy-cfd-server "reference MCP Tasks server with a lid-driven cavity CFD solver" server)
eddy_man_page(eddy-cfd-solve "one CFD case as a batch job for eddy-cfd-server --backend slurm" server)
add_custom_target(eddy_man_pages ALL DEPENDS ${eddy_man_pages})

# --- eddy: desktop integration ---------------------------------------------------------------
install(FILES ${PROJECT_SOURCE_DIR}/resources/eddy.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT gui)
foreach(size 16 24 32 48 64 128 256)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/eddy-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
            RENAME eddy.png COMPONENT gui)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/eddy.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT gui)
configure_file(${EDDY_PACKAGING_DIR}/io.github.eddy.Eddy.metainfo.xml
               ${PROJECT_BINARY_DIR}/packaging/io.github.eddy.Eddy.metainfo.xml @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/packaging/io.github.eddy.Eddy.metainfo.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo COMPONENT gui)
# The translations are compiled into eddy (qt_add_translations, :/i18n); Qt's own come from
# qt6-translations-l10n, which the package recommends.

# --- eddy-cfd-server: systemd units ------------------------------------------------------------
# Units under /usr/lib/systemd (the user-unit folder; the system folder is the same as /lib/systemd
# on Debian 12's merged /usr).
install(FILES ${EDDY_PACKAGING_DIR}/eddy-cfd-server.service
        DESTINATION lib/systemd/system COMPONENT server)
install(FILES ${EDDY_PACKAGING_DIR}/eddy-cfd-server-user.service
        DESTINATION lib/systemd/user RENAME eddy-cfd-server.service COMPONENT server)

# --- /usr/share/doc/<package>: copyright and changelog ----------------------------------------
string(TIMESTAMP EDDY_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(EDDY_DEB_VERSION "${PROJECT_VERSION}-1")
foreach(component gui server)
    if(component STREQUAL "gui")
        set(EDDY_DEB_PACKAGE eddy)
    else()
        set(EDDY_DEB_PACKAGE eddy-cfd-server)
    endif()
    set(doc ${PROJECT_BINARY_DIR}/packaging/${EDDY_DEB_PACKAGE})
    configure_file(${EDDY_PACKAGING_DIR}/changelog.in ${doc}/changelog.Debian @ONLY)
    add_custom_command(OUTPUT ${doc}/changelog.Debian.gz
        COMMAND ${EDDY_GZIP} -9nc ${doc}/changelog.Debian > ${doc}/changelog.Debian.gz
        DEPENDS ${doc}/changelog.Debian
        VERBATIM)
    list(APPEND eddy_changelogs ${doc}/changelog.Debian.gz)
    install(FILES ${EDDY_PACKAGING_DIR}/copyright ${doc}/changelog.Debian.gz
            DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${EDDY_DEB_PACKAGE} COMPONENT ${component})
endforeach()
add_custom_target(eddy_changelogs ALL DEPENDS ${eddy_changelogs})

# --- CPack --------------------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME eddy)
# Each component's description starts with its own synopsis line; CPack prepends the summary
# unless it is CPack's default, so it is left at that.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${CMAKE_PROJECT_NAME} built using CMake")
set(CPACK_PACKAGE_VENDOR "The Eddy authors")
set(CPACK_PACKAGE_CONTACT "${EDDY_DEB_MAINTAINER}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_COMPONENTS_ALL gui server)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${EDDY_DEB_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

set(CPACK_DEBIAN_GUI_PACKAGE_NAME eddy)
# libsecret-1-0: QtKeychain loads it to reach the Secret Service (else the owner-only token file)
set(CPACK_DEBIAN_GUI_PACKAGE_RECOMMENDS "eddy-cfd-server, qt6-translations-l10n, libsecret-1-0")
set(CPACK_DEBIAN_GUI_DESCRIPTION
"workbench for long-running MCP tasks (CFD parameter sweeps)
Eddy is a desktop engineering workbench for long-running simulation work and
an MCP client with the tasks extension. It submits CFD parameter sweeps to an
MCP server, keeps every task and result in a local SQLite database, charts the
residuals of running cases, asks the solver's questions in a dialog and picks
jobs back up in later sessions.

This package holds the eddy application and eddyctl, its command-line tool.
With eddy-cfd-server installed, Eddy starts a local server on its first run.")

set(CPACK_DEBIAN_SERVER_PACKAGE_NAME eddy-cfd-server)
# OpenFOAM (Debian's v1912) behind run_openfoam_case; without it the tool says what to install.
set(CPACK_DEBIAN_SERVER_PACKAGE_RECOMMENDS "openfoam, openfoam-examples")
set(CPACK_DEBIAN_SERVER_DESCRIPTION
"reference MCP Tasks server with a lid-driven cavity CFD solver
eddy-cfd-server serves the Model Context Protocol over Streamable HTTP with
the tasks extension. Its tool run_cfd_case solves the 2D incompressible
lid-driven cavity; run_openfoam_case runs OpenFOAM cases (templates or the
engineer's own) with checkMesh questions, live residuals and restarts, when
openfoam and openfoam-examples are installed. Tasks and checkpoints are kept
in SQLite, so running cases survive a restart.

This package holds the server, its manual page, and systemd units: a system
service under a dynamic user and a user service, both on 127.0.0.1:8765.")

include(CPack)
cpack_add_component(gui DISPLAY_NAME "Eddy")
cpack_add_component(server DISPLAY_NAME "eddy-cfd-server")
