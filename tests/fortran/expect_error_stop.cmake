# Run a test program that must end in ERROR STOP: exit code 1 (gfortran's code for ERROR STOP with a
# message; a crash or a normal return fails) and the expected text in its output.
#   cmake -DPROGRAM=<exe> -DCASE=<case> -DEXPECT=<literal substring> -P expect_error_stop.cmake
foreach(var PROGRAM CASE EXPECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "expect_error_stop.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(COMMAND "${PROGRAM}" "${CASE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("exit status: ${rc}\noutput:\n${all}")
if(NOT rc STREQUAL "1")
  message(FATAL_ERROR "expected exit status 1 from ERROR STOP, got '${rc}'")
endif()
string(FIND "${all}" "ERROR STOP" at_stop)
if(at_stop EQUAL -1)
  message(FATAL_ERROR "no 'ERROR STOP' in the output")
endif()
string(FIND "${all}" "${EXPECT}" at_text)
if(at_text EQUAL -1)
  message(FATAL_ERROR "the output does not contain: ${EXPECT}")
endif()
message("ok: ERROR STOP with \"${EXPECT}\"")
