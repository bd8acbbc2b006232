# Checks that dependencies point one way: every #include of a project header
# must name a header of the including file's own layer or of a layer below.
#
#   tools, fuzz      (4)  the sse-conform tool, its libraries, the fuzz targets
#   conformance      (3)  cases, logs, runner, generator
#   parser/dialect   (2)  catalogs, decoders, validator
#   support          (1)  result and error, the byte escaper, YAML reader, files
#   parser           (0)  the wire parser: standard library only
#
# parser/tests sit at the support layer: the wire parser's tests print bytes
# with the one escaper, the library itself never does.
#
# Usage: cmake -DROOT=<source dir> -P check_layers.cmake
# Prints every violation as file:line and fails; prints nothing otherwise.
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "check_layers.cmake: pass -DROOT=<source dir>")
endif()

# Layer of a path relative to ROOT; -1 for files outside every layer.
function(layer_of path out)
  if(path MATCHES "^parser/dialect/")
    set(rank 2)
  elseif(path MATCHES "^parser/tests/")
    set(rank 1)
  elseif(path MATCHES "^parser/")
    set(rank 0)
  elseif(path MATCHES "^support/")
    set(rank 1)
  elseif(path MATCHES "^conformance/")
    set(rank 3)
  elseif(path MATCHES "^(tools|fuzz)/")
    set(rank 4)
  else()
    set(rank -1)
  endif()
  set(${out} ${rank} PARENT_SCOPE)
endfunction()

set(layer_names wire support dialect conformance tools)

# Include roots, searched in this order after the including file's folder.
file(GLOB include_roots LIST_DIRECTORIES true
  "${ROOT}/parser/include" "${ROOT}/support/include" "${ROOT}/parser/dialect/include"
  "${ROOT}/conformance/include" "${ROOT}/tools/*/include" "${ROOT}/fuzz")

file(GLOB_RECURSE sources RELATIVE "${ROOT}" LIST_DIRECTORIES false
  "${ROOT}/parser/*.hpp" "${ROOT}/parser/*.cpp"
  "${ROOT}/support/*.hpp" "${ROOT}/support/*.cpp"
  "${ROOT}/conformance/*.hpp" "${ROOT}/conformance/*.cpp"
  "${ROOT}/tools/*.hpp" "${ROOT}/tools/*.cpp"
  "${ROOT}/fuzz/*.hpp" "${ROOT}/fuzz/*.cpp" "${ROOT}/fuzz/*.cc")

set(violations "")
foreach(source IN LISTS sources)
  if(source MATCHES "/consumer/")  # the install test's stand-alone project
    continue()
  endif()
  layer_of("${source}" own)
  if(own LESS 0)
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
    layer_of("${found}" theirs)
    if(theirs GREATER own)
      list(FIND all_lines "${line}" index)
      math(EXPR line_number "${index} + 1")
      list(GET layer_names ${own} own_name)
      list(GET layer_names ${theirs} their_name)
      string(APPEND violations
        "${source}:${line_number}: includes ${found} (${their_name} layer) from the ${own_name} layer\n")
    endif()
  endforeach()
endforeach()

if(violations)
  # NOTICE prints the lines as they are (FATAL_ERROR would re-wrap them).
  message(NOTICE "${violations}")
  message(FATAL_ERROR "includes must point down the layers (tools -> conformance -> dialect -> support -> parser)")
endif()
