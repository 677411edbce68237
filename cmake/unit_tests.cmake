# C++ unit tests of the pure pieces (GoogleTest), one executable per library folder, beside the code
# (csrc/<library>/.../test/). Built only with -DNPU_SIM_UNIT_TESTS=ON and when GoogleTest is found
# (Debian: libgtest-dev, installed by ci/apt_install.sh in the CI envs that run them); without it the
# tests are left out and the rest of the build is unaffected. tests/cxx/test_unit.py configures a tree
# with them, builds only their targets and runs them.
#
# Each test compiles the sources it tests into itself (no library of ours is linked), so that building
# them costs only those few units.
option(NPU_SIM_UNIT_TESTS "Build the C++ unit tests (needs GoogleTest)" OFF)
# Target unit_tests builds them all; unit_tests.txt in the build tree lists their paths, one a line
# (empty when GoogleTest is not found).
if(NPU_SIM_UNIT_TESTS)
  find_package(GTest QUIET)
  if(GTest_FOUND)
    add_custom_target(unit_tests)
  else()
    message(STATUS "C++ unit tests: GoogleTest not found (Debian: libgtest-dev); they are not built")
  endif()
endif()

# npu_sim_unit_test(<target> SOURCES ... [LINK ...]): one unit-test executable, written to bin/.
function(npu_sim_unit_test target)
  if(NOT NPU_SIM_UNIT_TESTS OR NOT GTest_FOUND)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_executable(${target} ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE ${ARG_LINK} GTest::gtest_main Threads::Threads)
  add_dependencies(unit_tests ${target})
  set_property(GLOBAL APPEND PROPERTY NPU_SIM_UNIT_TEST_FILES "$<TARGET_FILE:${target}>")
endfunction()

# Called once, after every folder has declared its tests: writes unit_tests.txt.
function(npu_sim_unit_test_manifest)
  if(NPU_SIM_UNIT_TESTS)
    # Empty without GoogleTest: the runner then knows they are absent rather than stale.
    get_property(files GLOBAL PROPERTY NPU_SIM_UNIT_TEST_FILES)
    list(JOIN files "\n" lines)
    file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/unit_tests.txt CONTENT "${lines}\n")
  endif()
endfunction()
