# Shared build helpers. Sanitizer and fuzzing flags live in CMakePresets.json,
# never here.

# Warnings for every target of the project.
function(ssec_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  endif()
endfunction()

# ssec_add_test(NAME SOURCES src... [LIBS lib...] [LABELS label...])
# One GoogleTest executable, its tests discovered into ctest with the labels.
function(ssec_add_test name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  ssec_warnings(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main GTest::gmock)
  include(GoogleTest)
  gtest_discover_tests(${name} PROPERTIES LABELS "${ARG_LABELS}" DISCOVERY_TIMEOUT 60)
endfunction()
