# cmake -DBUILD_DIR=... -DDOWNSTREAM_DIR=... -DWORK_DIR=... -DWITH_FORTRAN=ON|OFF -DCUDA_ROOT=...
#       -DCXX_COMPILER=... [-DFortran_COMPILER=...] -DGENERATOR=... -P run_install_test.cmake
# 1. cmake --install the build tree into WORK_DIR/prefix and check the installed layout;
# 2. configure and build tests/install/downstream with find_package(tcgemm [COMPONENTS fortran]);
# 3. compile the same sources with the flags of pkg-config tcgemm / tcgemm-fortran (when pkg-config exists).

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

function(expect_file pattern what)
  file(GLOB_RECURSE found "${PREFIX}/${pattern}")
  if(NOT found)
    message(FATAL_ERROR "installed tree lacks ${what} (${pattern})")
  endif()
  message(STATUS "installed: ${what}")
endfunction()

set(PREFIX "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# ---- 1. install ----------------------------------------------------------------------------------------
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}")
expect_file("libtcgemm.so*" "the shared library")
expect_file("include/tcgemm/tcgemm.h" "the header")
expect_file("tcgemmConfig.cmake" "the CMake package config")
expect_file("tcgemmConfigVersion.cmake" "the CMake package version file")
expect_file("tcgemm.pc" "the pkg-config file")
if(WITH_FORTRAN)
  expect_file("libtcgemm_fortran.a" "the Fortran module library")
  expect_file("include/tcgemm/fortran/*/tcgemm.mod" "tcgemm.mod under include/tcgemm/fortran/<compiler>-<version>")
  expect_file("include/tcgemm/fortran/*/tcgemm_c.mod" "tcgemm_c.mod")
  expect_file("tcgemm-fortran.pc" "the Fortran pkg-config file")
endif()

# ---- 2. find_package ------------------------------------------------------------------------------------
set(configure_args -S "${DOWNSTREAM_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
    "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCUDAToolkit_ROOT=${CUDA_ROOT}"
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DWITH_FORTRAN=${WITH_FORTRAN}")
if(WITH_FORTRAN)
  list(APPEND configure_args "-DCMAKE_Fortran_COMPILER=${Fortran_COMPILER}")
endif()
run(${CMAKE_COMMAND} ${configure_args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
message(STATUS "find_package(tcgemm): downstream program(s) built (Fortran: ${WITH_FORTRAN})")
if(WITH_FORTRAN AND NOT EXISTS "${WORK_DIR}/build/downstream_fortran")
  message(FATAL_ERROR "the downstream Fortran program was not built")
endif()

# ---- 3. pkg-config --------------------------------------------------------------------------------------
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf)
if(NOT PKG_CONFIG_EXECUTABLE)
  message(STATUS "pkg-config not found: the pkg-config part is skipped")
  return()
endif()
file(GLOB_RECURSE pc_files "${PREFIX}/tcgemm.pc")
list(GET pc_files 0 pc_file)
get_filename_component(pc_dir "${pc_file}" DIRECTORY)

function(pkg_flags out package)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_dir}"
                          ${PKG_CONFIG_EXECUTABLE} --cflags --libs ${package}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE flags ERROR_VARIABLE err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config --cflags --libs ${package} failed: ${err}")
  endif()
  message(STATUS "pkg-config ${package}: ${flags}")
  separate_arguments(flags UNIX_COMMAND "${flags}")
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

pkg_flags(cxx_flags tcgemm)
run(${CXX_COMPILER} -std=c++17 "${DOWNSTREAM_DIR}/main.cpp" ${cxx_flags} -o "${WORK_DIR}/pkgconfig_cxx")
if(WITH_FORTRAN)
  pkg_flags(fortran_flags tcgemm-fortran)
  # The README's compile line: gfortran hello.f90 $(pkg-config --cflags --libs tcgemm-fortran)
  run(${Fortran_COMPILER} "${DOWNSTREAM_DIR}/main.f90" ${fortran_flags} -o "${WORK_DIR}/pkgconfig_fortran")
endif()
message(STATUS "pkg-config: downstream program(s) built")
