# Checks that dependencies point one way: every #include of a project header
# must name a header of the including file's own component or of a component
# of a lower rank. Two components of the same rank are siblings and may not
# include each other.
#
# The table below is the whole order, bottom up (HACKING.md draws it). A row
# is "folder rank layer"; the first row whose folder starts the file's path
# gives its component, so a sub-folder is listed before its parent.
#
# parser/tests sit above support: the wire parser's tests print bytes
# with the one escaper, the library itself never does.
#
# Usage: cmake -DROOT=<source dir> -P check_layers.cmake
# Prints every violation as file:line and fails; prints nothing otherwise.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<source dir>")
endif()

set(components
  # folder                rank  layer
  "parser/tests            2    support"
  "parser                  0    wire"
  "support                 1    support"
  "spec                    2    dialects"
  "dialects                2    dialects"
  "conformance             3    conformance"
  # The tool's libraries: the adapter protocol and processes, HTTP, the
  # shared report writers and the benchmark streams; then check / serve and
  # catalog diff's reports; the run harness; certify and differential
  # fuzzing; the command line, its tests and the fuzz targets on top.
  "tools/adapter           4    tools"
  "tools/http              4    tools"
  "tools/report            4    tools"
  "tools/bench             4    tools"
  "tools/live              5    tools"
  "tools/catalog-diff      5    tools"
  "tools/harness           6    tools"
  "tools/certify           7    tools"
  "tools/differential      7    tools"
  "tools/sse-conform       8    tools"
  "tools/tests             8    tools"
  "fuzz                    8    fuzz")

# The component (its folder), rank and layer of a path relative to ROOT; an
# empty folder for files outside every component.
function(component_of path out_folder out_rank out_layer)
  foreach(row IN LISTS components)
    string(REGEX REPLACE " +" ";" fields "${row}")
    list(GET fields 0 folder)
    if(path MATCHES "^${folder}/")
      list(GET fields 1 rank)
      list(GET fields 2 layer)
      set(${out_folder} "${folder}" PARENT_SCOPE)
      set(${out_rank} ${rank} PARENT_SCOPE)
      set(${out_layer} ${layer} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out_folder} "" PARENT_SCOPE)
endfunction()

# Include roots, searched in this order after the including file's folder.
file(GLOB include_roots LIST_DIRECTORIES true
  "${ROOT}/parser/include" "${ROOT}/support/include" "${ROOT}/dialects/include"
  "${ROOT}/conformance/include" "${ROOT}/tools/*/include" "${ROOT}/fuzz")

set(globs "")
foreach(row IN LISTS components)
  string(REGEX REPLACE " +" ";" fields "${row}")
  list(GET fields 0 folder)
  list(APPEND globs "${ROOT}/${folder}/*.hpp" "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.cc")
endforeach()
file(GLOB_RECURSE sources RELATIVE "${ROOT}" LIST_DIRECTORIES false ${globs})
list(REMOVE_DUPLICATES sources)

set(violations "")
foreach(source IN LISTS sources)
  if(source MATCHES "/consumer/")  # the install test's stand-alone project
    continue()
  endif()
  component_of("${source}" own own_rank own_layer)
  if(own STREQUAL "")
    continue()
  endif()
  get_filename_component(own_dir "${ROOT}/${source}" DIRECTORY)
  file(STRINGS "${ROOT}/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]")
  file(STRINGS "${ROOT}/${source}" all_lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]+)[>\"].*$" "\\1" header "${line}")
    set(found "")
    foreach(dir IN ITEMS "${own_dir}" LISTS include_roots)
      if(EXISTS "${dir}/${header}")
        file(RELATIVE_PATH found "${ROOT}" "${dir}/${header}")
        break()
      endif()
    endforeach()
    if(found STREQUAL "")
      continue()  # a system or third-party header
    endif()
    component_of("${found}" theirs their_rank their_layer)
    if(theirs STREQUAL "" OR theirs STREQUAL own OR their_rank LESS own_rank)
      continue()
    endif()
    list(FIND all_lines "${line}" index)
    math(EXPR line_number "${index} + 1")
    if(their_rank EQUAL own_rank)
      set(why "a sibling of the same rank")
    else()
      set(why "rank ${their_rank}, above ${own}'s ${own_rank}")
    endif()
    string(APPEND violations
      "${source}:${line_number}: includes ${found} (${theirs}, ${their_layer} layer, ${why}) from ${own} (${own_layer} layer)\n")
  endforeach()
endforeach()

if(violations)
  # NOTICE prints the lines as they are (FATAL_ERROR would re-wrap them).
  message(NOTICE "${violations}")
  message(FATAL_ERROR "includes must point down the components of cmake/check_layers.cmake (tools -> conformance -> dialects -> support -> wire)")
endif()
