# cmake -DBUILD_DIR=... -DDOWNSTREAM_DIR=... -DWORK_DIR=... -DWITH_FORTRAN=ON|OFF -DCUDA_ROOT=...
#       -DCXX_COMPILER=... [-DFortran_COMPILER=...] -DGENERATOR=... [-DSTATIC_FROM_SOURCE=<tcgemm source dir>
#       -DCUDA_COMPILER=...] -P run_install_test.cmake
# 0. with STATIC_FROM_SOURCE: first build tcgemm as a static library (BUILD_SHARED_LIBS=OFF, sm_90 code
#    only, library targets only) into WORK_DIR/static-build, which then plays BUILD_DIR; the consumers below
#    must link libtcgemm.a with only what the package file and `pkg-config --static` give them;
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

# ---- 0. a static build (the static-consumer test) --------------------------------------------------------
set(static_build OFF)
if(STATIC_FROM_SOURCE)
  set(static_build ON)
  set(BUILD_DIR "${WORK_DIR}/static-build")
  set(static_args -S "${STATIC_FROM_SOURCE}" -B "${BUILD_DIR}" -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
      -DBUILD_SHARED_LIBS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DTCGEMM_BUILD_TESTS=OFF -DTCGEMM_BUILD_EXAMPLES=OFF
      -DTCGEMM_BUILD_BENCH=OFF "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}")
  if(WITH_FORTRAN)
    list(APPEND static_args "-DCMAKE_Fortran_COMPILER=${Fortran_COMPILER}")
  else()
    list(APPEND static_args -DTCGEMM_ENABLE_FORTRAN=OFF)
  endif()
  run(${CMAKE_COMMAND} ${static_args})
  run(${CMAKE_COMMAND} --build "${BUILD_DIR}" --parallel 2)
  message(STATUS "static build of tcgemm done")
endif()

# ---- 1. install ----------------------------------------------------------------------------------------
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}")
if(static_build)
  expect_file("libtcgemm.a" "the static library")
else()
  expect_file("libtcgemm.so*" "the shared library")
endif()
expect_file("include/tcgemm/tcgemm.h" "the header")
expect_file("tcgemmConfig.cmake" "the CMake package config")
expect_file("tcgemmConfigVersion.cmake" "the CMake package version file")
expect_file("tcgemm.pc" "the pkg-config file")
expect_file("libtcgemm_blas.so*" "the BLAS ABI library")
expect_file("tcgemm-blas.pc" "the BLAS ABI pkg-config file")
expect_file("share/doc/tcgemm/LICENSE" "the license")
if(WITH_FORTRAN)
  expect_file("libtcgemm_fortran.a" "the Fortran module library")
  expect_file("include/tcgemm/fortran/*/tcgemm.mod" "tcgemm.mod under include/tcgemm/fortran/<compiler>-<version>")
  expect_file("include/tcgemm/fortran/*/tcgemm_c.mod" "tcgemm_c.mod")
  expect_file("tcgemm-fortran.pc" "the Fortran pkg-config file")
endif()

# ---- 1b. no paths of this machine's build tree, and the CUDA paths those of the toolkit in use -------------
# tcgemm.pc names the toolkit's include and library directories (configured from the toolkit CMake found,
# not written in): they must exist and hold the CUDA runtime. The installed shared libraries' RUNPATH may
# name $ORIGIN and the toolkit's library directory, never the build tree.
file(GLOB_RECURSE pc_for_paths "${PREFIX}/tcgemm.pc")
file(STRINGS "${pc_for_paths}" pc_lines)
foreach(line IN LISTS pc_lines)
  # (${CMAKE_MATCH_1} is expanded before if() evaluates: the test of the match goes in a nested if.)
  if(line MATCHES "^cudaincludedir=(.*)$")
    if(NOT EXISTS "${CMAKE_MATCH_1}/cuda_runtime_api.h")
      message(FATAL_ERROR "tcgemm.pc: cudaincludedir=${CMAKE_MATCH_1} holds no cuda_runtime_api.h")
    endif()
  endif()
  if(line MATCHES "^cudalibdir=(.*)$")
    file(GLOB cudart_found "${CMAKE_MATCH_1}/libcudart.so*")
    if(NOT cudart_found)
      message(FATAL_ERROR "tcgemm.pc: cudalibdir=${CMAKE_MATCH_1} holds no libcudart.so")
    endif()
  endif()
  if(line MATCHES "${BUILD_DIR}")
    message(FATAL_ERROR "tcgemm.pc names the build tree: ${line}")
  endif()
endforeach()
find_program(READELF_EXECUTABLE readelf)
if(READELF_EXECUTABLE)
  file(GLOB_RECURSE installed_shared "${PREFIX}/*.so")
  foreach(lib IN LISTS installed_shared)
    execute_process(COMMAND ${READELF_EXECUTABLE} -d "${lib}" OUTPUT_VARIABLE dynamic)
    if(dynamic MATCHES "R(UN)?PATH\\)[^[]*\\[([^]]*)\\]")
      set(runpath "${CMAKE_MATCH_2}")
      string(REPLACE ":" ";" entries "${runpath}")
      foreach(entry IN LISTS entries)
        if(entry MATCHES "^${BUILD_DIR}" OR (NOT entry STREQUAL "$ORIGIN" AND NOT IS_DIRECTORY "${entry}"))
          message(FATAL_ERROR "${lib}: RUNPATH entry '${entry}' is the build tree or no directory (${runpath})")
        endif()
      endforeach()
      message(STATUS "RUNPATH of ${lib}: ${runpath}")
    endif()
  endforeach()
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
if(NOT EXISTS "${WORK_DIR}/build/downstream_blas")
  message(FATAL_ERROR "the downstream program linked against tcgemm::blas was not built")
endif()

# ---- 2b. the README's snippet in a project without cmake_minimum_required (the package file must set
# its own policies) ---------------------------------------------------------------------------------------
file(MAKE_DIRECTORY "${WORK_DIR}/bare")
set(bare_args "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCUDAToolkit_ROOT=${CUDA_ROOT}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}")
if(WITH_FORTRAN)
  # README's snippet verbatim (its hello.f90 is downstream/main.f90).
  file(COPY "${DOWNSTREAM_DIR}/main.f90" DESTINATION "${WORK_DIR}/bare")
  file(RENAME "${WORK_DIR}/bare/main.f90" "${WORK_DIR}/bare/hello.f90")
  file(WRITE "${WORK_DIR}/bare/CMakeLists.txt"
       "project(hello LANGUAGES Fortran)\n"
       "find_package(tcgemm 0.1 REQUIRED COMPONENTS fortran)\n"
       "add_executable(hello hello.f90)\n"
       "target_link_libraries(hello PRIVATE tcgemm::fortran)   # brings tcgemm::tcgemm and CUDA::cudart\n")
  list(APPEND bare_args "-DCMAKE_Fortran_COMPILER=${Fortran_COMPILER}")
else()
  file(WRITE "${WORK_DIR}/bare/CMakeLists.txt"
       "project(tcgemm_bare LANGUAGES CXX)\n"
       "find_package(tcgemm 0.1 REQUIRED)\n"
       "add_executable(bare \"${DOWNSTREAM_DIR}/main.cpp\")\n"
       "target_link_libraries(bare PRIVATE tcgemm::tcgemm)\n")
endif()
run(${CMAKE_COMMAND} -S "${WORK_DIR}/bare" -B "${WORK_DIR}/bare/build" -G "${GENERATOR}" ${bare_args})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/bare/build")
message(STATUS "a project without cmake_minimum_required finds and links tcgemm")
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
  # A static library's consumer needs Libs.private too: `pkg-config --static`.
  set(static_flag "")
  if(static_build)
    set(static_flag --static)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_dir}"
                          ${PKG_CONFIG_EXECUTABLE} ${static_flag} --cflags --libs ${package}
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
pkg_flags(blas_flags tcgemm-blas)
run(${CXX_COMPILER} "${DOWNSTREAM_DIR}/blas_main.cpp" ${blas_flags} -o "${WORK_DIR}/pkgconfig_blas")
if(WITH_FORTRAN)
  pkg_flags(fortran_flags tcgemm-fortran)
  # The README's compile line: gfortran hello.f90 $(pkg-config --cflags --libs tcgemm-fortran)
  run(${Fortran_COMPILER} "${DOWNSTREAM_DIR}/main.f90" ${fortran_flags} -o "${WORK_DIR}/pkgconfig_fortran")
endif()
message(STATUS "pkg-config: downstream program(s) built")
