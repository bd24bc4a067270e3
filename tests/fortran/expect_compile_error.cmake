# Compile a program against module tcgemm twice: as it stands it must compile (the control: the
# module is found and the accepted forms resolve), with -D<DEFINE> it must be refused with a
# message containing EXPECT and NAME. A program that compiles with the define fails the test.
#   cmake -DCOMPILER=<gfortran> -DMODULE_DIR=<dir> -DSOURCE=<file.F90> -DDEFINE=<macro>
#         -DEXPECT=<text> -DNAME=<text> -P expect_compile_error.cmake
foreach(var COMPILER MODULE_DIR SOURCE DEFINE EXPECT NAME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_compile_error.cmake: -D${var}=... is required")
  endif()
endforeach()

set(compile "${COMPILER}" -cpp -fsyntax-only -std=f2018 "-I${MODULE_DIR}" "${SOURCE}")
execute_process(COMMAND ${compile} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the control compile (without -D${DEFINE}) failed:\n${out}${err}")
endif()
message("control: compiles without -D${DEFINE}")

execute_process(COMMAND ${compile} "-D${DEFINE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("with -D${DEFINE}: exit status ${rc}\n${all}")
if(rc EQUAL 0)
  message(FATAL_ERROR "compiled with -D${DEFINE}; it must be refused")
endif()
foreach(text IN ITEMS "${EXPECT}" "${NAME}")
  string(FIND "${all}" "${text}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the compiler's message does not contain: ${text}")
  endif()
endforeach()
message("ok: refused with \"${EXPECT}\" (${NAME})")
