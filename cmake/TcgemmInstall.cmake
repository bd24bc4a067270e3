# Installation and package files of tcgemm. Included by the top-level CMakeLists.txt after the targets
# exist:
#   tcgemm          (the C/C++ library, exported as tcgemm::tcgemm)
#   tcgemm_blas     (the BLAS ABI over tcgemm: dgemm_, dgemm_64_, cblas_dgemm; exported as tcgemm::blas)
#   tcgemm_pblas    (optional, with MPI and ScaLAPACK: pdgemm_ over MPI; exported as tcgemm::pblas)
#   tcgemm_fortran  (optional: the Fortran module library, exported as tcgemm::fortran)
#
# Installed layout (prefix-relative, GNUInstallDirs):
#   lib/libtcgemm.so*, lib/libtcgemm_blas.so*, lib/libtcgemm_fortran.a
#   include/tcgemm/tcgemm.h
#   include/tcgemm/fortran/<compiler id>-<version>/*.mod
#       tcgemm.mod, tcgemm_c.mod and the .mod files of the parts of module tcgemm (fortran/tcgemm.f90);
#       .mod files are compiler-specific; a program must be compiled with the compiler that wrote them
#   lib/cmake/tcgemm/{tcgemmConfig,tcgemmConfigVersion,tcgemmTargets*}.cmake
#       find_package(tcgemm [COMPONENTS fortran]) -> tcgemm::tcgemm, tcgemm::fortran
#   lib/pkgconfig/tcgemm.pc, tcgemm-blas.pc, tcgemm-pblas.pc, tcgemm-fortran.pc   (relocatable: paths from ${pcfiledir})

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(TCGEMM_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/tcgemm")
set(TCGEMM_INSTALL_PKGCONFIGDIR "${CMAKE_INSTALL_LIBDIR}/pkgconfig")

# ---- library and header ---------------------------------------------------------------------------
install(TARGETS tcgemm EXPORT tcgemmTargets
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/cxx/include/tcgemm"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
        FILES_MATCHING PATTERN "*.h")

install(FILES "${PROJECT_SOURCE_DIR}/LICENSE" DESTINATION "${CMAKE_INSTALL_DOCDIR}")

# ---- BLAS ABI library (dgemm_, dgemm_64_, cblas_dgemm) ---------------------------------------------
if(TARGET tcgemm_blas)
  install(TARGETS tcgemm_blas EXPORT tcgemmTargets
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()

# ---- PBLAS ABI library (pdgemm_ over MPI, when built) ----------------------------------------------------
if(TARGET tcgemm_pblas)
  install(TARGETS tcgemm_pblas EXPORT tcgemmTargets
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
endif()

# ---- Fortran module library and .mod files -----------------------------------------------------------
set(TCGEMM_HAVE_FORTRAN_PACKAGE OFF)
if(TARGET tcgemm_fortran)
  set(TCGEMM_HAVE_FORTRAN_PACKAGE ON)
  # TCGEMM_INSTALL_MODULEDIR (fortran/CMakeLists.txt, a cache variable) says where the .mod files go.
  set(TCGEMM_INSTALL_MODDIR "${TCGEMM_INSTALL_MODULEDIR}")
  if(IS_ABSOLUTE "${TCGEMM_INSTALL_MODDIR}")
    set(TCGEMM_PC_MODDIR "${TCGEMM_INSTALL_MODDIR}")
  else()
    set(TCGEMM_PC_MODDIR "\${prefix}/${TCGEMM_INSTALL_MODDIR}")
  endif()
  get_target_property(tcgemm_fortran_moddir tcgemm_fortran Fortran_MODULE_DIRECTORY)
  install(TARGETS tcgemm_fortran EXPORT tcgemmTargets
    ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
    LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
  # The directory holds exactly the module library's .mod files (tcgemm, tcgemm_c and the parts of
  # tcgemm): all are installed, since a compiler may need the modules that tcgemm uses to read it.
  install(DIRECTORY "${tcgemm_fortran_moddir}/"
          DESTINATION "${TCGEMM_INSTALL_MODDIR}"
          FILES_MATCHING PATTERN "*.mod")
endif()

# ---- CMake package ----------------------------------------------------------------------------------
install(EXPORT tcgemmTargets
        NAMESPACE tcgemm::
        FILE tcgemmTargets.cmake
        DESTINATION "${TCGEMM_INSTALL_CMAKEDIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/tcgemmConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/package/tcgemmConfig.cmake"
                              INSTALL_DESTINATION "${TCGEMM_INSTALL_CMAKEDIR}")
# 0.x: a minor release may change the API, so only the same major.minor is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/package/tcgemmConfigVersion.cmake"
                                 VERSION "${PROJECT_VERSION}"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/package/tcgemmConfig.cmake"
              "${PROJECT_BINARY_DIR}/package/tcgemmConfigVersion.cmake"
        DESTINATION "${TCGEMM_INSTALL_CMAKEDIR}")

# ---- pkg-config ---------------------------------------------------------------------------------------
# Relocatable: the prefix is computed from the .pc file's own directory, so `cmake --install --prefix`
# to any directory yields working files.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TCGEMM_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH tcgemm_pc_up "/prefix/${TCGEMM_INSTALL_PKGCONFIGDIR}" "/prefix")
  set(TCGEMM_PC_PREFIX "\${pcfiledir}/${tcgemm_pc_up}")
endif()
# tcgemm.h includes cuda_runtime_api.h, so C/C++ users need the CUDA include directory.
list(GET CUDAToolkit_INCLUDE_DIRS 0 TCGEMM_PC_CUDA_INCLUDEDIR)
# The CUDA runtime: programs that use tcgemm's stream argument call cudaStreamCreate themselves, and a static
# libtcgemm needs it (and the C++ runtime) at link time.
set(TCGEMM_PC_CUDA_LIBDIR "${CUDAToolkit_LIBRARY_DIR}")
configure_file("${PROJECT_SOURCE_DIR}/cmake/tcgemm.pc.in" "${PROJECT_BINARY_DIR}/package/tcgemm.pc" @ONLY)
install(FILES "${PROJECT_BINARY_DIR}/package/tcgemm.pc" DESTINATION "${TCGEMM_INSTALL_PKGCONFIGDIR}")
if(TARGET tcgemm_blas)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/tcgemm-blas.pc.in" "${PROJECT_BINARY_DIR}/package/tcgemm-blas.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/package/tcgemm-blas.pc" DESTINATION "${TCGEMM_INSTALL_PKGCONFIGDIR}")
endif()
if(TARGET tcgemm_pblas)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/tcgemm-pblas.pc.in" "${PROJECT_BINARY_DIR}/package/tcgemm-pblas.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/package/tcgemm-pblas.pc" DESTINATION "${TCGEMM_INSTALL_PKGCONFIGDIR}")
endif()
if(TCGEMM_HAVE_FORTRAN_PACKAGE)
  configure_file("${PROJECT_SOURCE_DIR}/cmake/tcgemm-fortran.pc.in"
                 "${PROJECT_BINARY_DIR}/package/tcgemm-fortran.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/package/tcgemm-fortran.pc" DESTINATION "${TCGEMM_INSTALL_PKGCONFIGDIR}")
endif()
