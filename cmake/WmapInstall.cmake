# `cmake --install`: the wmap command (and kubectl-wmap, the same as a kubectl plugin), the
# public headers, the layer libraries, libwmap.so and a CMake package, so that another project
# can write
#   find_package(wmap REQUIRED)
#   target_link_libraries(app PRIVATE wmap::shared)     # or wmap::resolve, wmap::jq...
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WMAP_INSTALL_TARGETS ${WMAP_LAYERS})
if(TARGET wmap_shared)
  list(APPEND WMAP_INSTALL_TARGETS wmap_shared)
endif()
install(TARGETS wmap RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# kubectl-wmap beside it, a link to wmap: kubectl runs an executable named kubectl-NAME found on
# PATH as `kubectl NAME`, and wmap, run by that name, says `kubectl wmap` in its help and messages.
install(CODE "
  set(wmap_bin \"${CMAKE_INSTALL_BINDIR}\")
  if(NOT IS_ABSOLUTE \"\${wmap_bin}\")
    set(wmap_bin \"\${CMAKE_INSTALL_PREFIX}/\${wmap_bin}\")
  endif()
  set(wmap_bin \"\$ENV{DESTDIR}\${wmap_bin}\")
  message(STATUS \"Installing: \${wmap_bin}/kubectl-wmap -> wmap\")
  file(CREATE_LINK wmap \"\${wmap_bin}/kubectl-wmap\" SYMBOLIC)
")
install(TARGETS ${WMAP_INSTALL_TARGETS} EXPORT wmapTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/wmap DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(WMAP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/wmap)
install(EXPORT wmapTargets NAMESPACE wmap:: DESTINATION ${WMAP_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/wmapConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wmapConfig.cmake INSTALL_DESTINATION ${WMAP_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/wmapConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/wmapConfig.cmake ${PROJECT_BINARY_DIR}/wmapConfigVersion.cmake
  DESTINATION ${WMAP_CMAKE_DIR})
