# `cmake --install`: the wmap command, the public headers, the layer libraries, libwmap.so and a
# CMake package, so that another project can write
#   find_package(wmap REQUIRED)
#   target_link_libraries(app PRIVATE wmap::shared)     # or wmap::resolve, wmap::jq...
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WMAP_INSTALL_TARGETS ${WMAP_LAYERS})
if(TARGET wmap_shared)
  list(APPEND WMAP_INSTALL_TARGETS wmap_shared)
endif()
install(TARGETS wmap RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
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
