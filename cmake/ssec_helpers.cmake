# Shared build helpers. Sanitizer and fuzzing flags live in CMakePresets.json,
# never here.

# Warnings for every target of the project.
function(ssec_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  endif()
  # GCC 12 at -O2 warns -Wrestrict inside libstdc++ for `"text" + std::string`
  # (a false positive, GCC bug 105329): off for GCC before 13 only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  # A unity build includes each source into a batch file, and GCC then takes
  # a test's fixture in an anonymous namespace for a header's, warning
  # -Wsubobject-linkage on each of its tests: a false positive of the
  # batching, which the one-unit-per-file build (SSEC_UNITY_BUILD=OFF) keeps.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND SSEC_UNITY_BUILD)
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# Precompiled headers for a target of several translation units: the
# third-party headers nearly every one of them includes (nlohmann/json costs
# about 3 s of each unit that includes it, CLI11 about 7 s, GoogleTest about
# 1 s), parsed once per target instead of once per unit. Measured in
# HACKING.md ("Build time"). SSEC_PRECOMPILE_HEADERS=OFF builds without them,
# which is how a missing #include that the precompiled set hides is found.
option(SSEC_PRECOMPILE_HEADERS "Precompile the heavy third-party headers of the multi-unit targets" ON)
set(SSEC_PRECOMPILED
  <algorithm> <functional> <map> <memory> <optional> <string> <string_view> <vector>
  <nlohmann/json.hpp>)

# Unity builds: each target's sources are compiled eight to a translation
# unit, so the inline code of the third-party headers (nlohmann/json, CLI11,
# GoogleTest) is instantiated and optimised once per batch instead of once
# per file: a clean release build takes 343 s instead of 506 s on 2 cores
# (HACKING.md, "Build time"). Sources with compile definitions of their own
# stay apart. A name one file keeps to itself must therefore be unique in its
# target; SSEC_UNITY_BUILD=OFF builds one unit per file, which also finds an
# #include that a batch hides. tools/tidy.sh reads the batches' sources.
option(SSEC_UNITY_BUILD "Compile each target's sources in batches of eight (unity build)" ON)
set(CMAKE_UNITY_BUILD ${SSEC_UNITY_BUILD})
set(CMAKE_UNITY_BUILD_BATCH_SIZE 8)

# ssec_precompile(TARGET [header...]): SSEC_PRECOMPILED and the extra headers,
# for a target its sources (those it has so far) make more than one
# translation unit. A target of one unit, one batch of a unity build, parses
# the headers once either way: its precompiled header cost 4-7 s of CPU to
# write and saved its unit 0-3 s (GCC, release; HACKING.md, "Build time").
function(ssec_precompile target)
  if(NOT SSEC_PRECOMPILE_HEADERS)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.(cc|cpp|cxx)$")
  list(LENGTH sources units)
  if(SSEC_UNITY_BUILD)
    math(EXPR units "(${units} + ${CMAKE_UNITY_BUILD_BATCH_SIZE} - 1) / ${CMAKE_UNITY_BUILD_BATCH_SIZE}")
  endif()
  if(units GREATER 1)
    target_precompile_headers(${target} PRIVATE ${SSEC_PRECOMPILED} ${ARGN})
  endif()
endfunction()

# ssec_test_code(TARGET [HOT_CODE]): the compile flags of a test executable's
# own code. It needs no optimisation: the release and asan presets compile it
# at -O0 (SSEC_TEST_CODE_FLAGS; a fifth to two fifths less compile time for
# the tests, a few seconds more in their run; HACKING.md, "Build time").
# HOT_CODE marks an executable whose own loops are most of its run time (the
# parser tests feed the parser's templates byte by byte under every chunking):
# its own code takes SSEC_HOT_TEST_CODE_FLAGS instead (none in the asan
# preset, so its -O1). The libraries and the tool keep the build type's
# flags; only a header template a test instantiates itself (the parser's feed
# loop) runs at the test's flags. ssec_add_test calls it; a test executable
# made otherwise calls it itself.
set(SSEC_TEST_CODE_FLAGS "" CACHE STRING "Compile flags added to the test executables' own code")
set(SSEC_HOT_TEST_CODE_FLAGS "" CACHE STRING
    "Compile flags added, instead of SSEC_TEST_CODE_FLAGS, to the own code of test executables marked HOT_CODE")

function(ssec_test_code target)
  cmake_parse_arguments(ARG "HOT_CODE" "" "" ${ARGN})
  if(ARG_HOT_CODE)
    set(own_code_flags ${SSEC_HOT_TEST_CODE_FLAGS})
  else()
    set(own_code_flags ${SSEC_TEST_CODE_FLAGS})
  endif()
  if(own_code_flags)
    target_compile_options(${target} PRIVATE ${own_code_flags})
  endif()
endfunction()

# ssec_add_test(NAME SOURCES src... [LIBS lib...] [LABELS label...] [HOT_CODE])
# One GoogleTest executable, its tests discovered into ctest with the labels,
# its own code compiled as ssec_test_code says (HOT_CODE is passed on).
# Targets of more than one unit precompile GoogleTest with the common set.
function(ssec_add_test name)
  cmake_parse_arguments(ARG "HOT_CODE" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  ssec_warnings(${name})
  set(hot_code "")
  if(ARG_HOT_CODE)
    set(hot_code HOT_CODE)
  endif()
  ssec_test_code(${name} ${hot_code})
  ssec_precompile(${name} <gtest/gtest.h> <gmock/gmock.h>)
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  include(GoogleTest)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60)
  # The labels are set by a script ctest reads after the discovered tests:
  # gtest_discover_tests flattens its PROPERTIES into one list, where every
  # label after the first read as a property name and was lost.
  if(ARG_LABELS)
    set(labels_script "${CMAKE_CURRENT_BINARY_DIR}/${name}_labels.cmake")
    file(WRITE "${labels_script}"
         "if(${name}_TESTS)\n  set_tests_properties(\${${name}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_script}")
  endif()
endfunction()
