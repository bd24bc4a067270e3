# Small helpers shared by the subdirectories.

# tcgemm_add_gtest(<name> SOURCES ... LABEL cpu|gpu [LIBS ...])
# One GoogleTest executable registered with ctest under the given label. GPU tests skip themselves
# (GTEST_SKIP "no CUDA device") on a machine without a GPU, so both labels run everywhere.
function(tcgemm_add_gtest name)
  # SERIAL: the suite's cases run alone (they measure the device's free memory, which other test processes
  # would change).
  cmake_parse_arguments(T "SERIAL" "LABEL" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE tcgemm::tcgemm GTest::gmock GTest::gtest GTest::gtest_main ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/cxx)
  gtest_discover_tests(${name} PROPERTIES LABELS "${T_LABEL}" RUN_SERIAL ${T_SERIAL} DISCOVERY_TIMEOUT 60)
endfunction()
