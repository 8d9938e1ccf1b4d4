# wmap_add_layer(NAME SOURCES file... DEPENDS target...)
#
# One static library per layer, wmap_NAME, built from the listed sources of src/NAME/. Its users
# see the public headers (include/wmap/); its own sources also see src/ for the private headers
# of their layer. Which private headers a layer may include is checked by
# scripts/check_layers.py (the `layering` test), since every layer shares the src/ root.
# Objects are position independent and hidden by default, so the same objects make the shared
# libwmap, which exports only what include/wmap/ declares.
set(WMAP_LAYERS "" CACHE INTERNAL "The layer libraries, lowest first")

function(wmap_add_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;DEPENDS")
  set(sources "")
  foreach(source IN LISTS arg_SOURCES)
    if(IS_ABSOLUTE "${source}")
      list(APPEND sources "${source}")
    else()
      list(APPEND sources "${CMAKE_CURRENT_SOURCE_DIR}/${source}")
    endif()
  endforeach()
  add_library(wmap_${name} STATIC ${sources})
  add_library(wmap::${name} ALIAS wmap_${name})
  target_include_directories(wmap_${name}
    PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>
    PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(wmap_${name} PUBLIC ${arg_DEPENDS})
  set_target_properties(wmap_${name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    EXPORT_NAME ${name})
  set(WMAP_LAYERS ${WMAP_LAYERS} wmap_${name} CACHE INTERNAL "The layer libraries, lowest first")
endfunction()
