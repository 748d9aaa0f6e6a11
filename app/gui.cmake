# The GUI executable (included by app/CMakeLists.txt). Widgets and models are separate targets.
# The background notifier (eddy --notify) is part of it.
qt_add_executable(eddy main.cpp notifier.h notifier.cpp stallprobe.h stallprobe.cpp)
target_link_libraries(eddy PRIVATE eddy_widgets eddy_models eddy_monitor eddy_keychain Qt6::Widgets
    Qt6::DBus)
set_target_properties(eddy PROPERTIES OUTPUT_NAME eddy)

set(EDDY_ICON_FILES
    icons/eddy-16.png icons/eddy-24.png icons/eddy-32.png icons/eddy-48.png
    icons/eddy-64.png icons/eddy-128.png icons/eddy-256.png
)
list(TRANSFORM EDDY_ICON_FILES PREPEND ${PROJECT_SOURCE_DIR}/resources/)
qt_add_resources(eddy eddy_icons PREFIX /eddy BASE ${PROJECT_SOURCE_DIR}/resources FILES ${EDDY_ICON_FILES})
qt_add_translations(eddy TS_FILES ${PROJECT_SOURCE_DIR}/translations/eddy_de.ts
                           ${PROJECT_SOURCE_DIR}/translations/eddy_en.ts)
install(TARGETS eddy RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT gui)
install(FILES ${PROJECT_SOURCE_DIR}/docs/user-guide.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/eddy COMPONENT gui)
