# Runs CMD with ARGS ('|'-separated) and checks the exit status is STATUS; for status 2, that stderr
# is exactly one line starting with "thmcheck: error:" and that no summary.json was left behind; with EXPECT_OUT,
# that stdout matches it.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CMD} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL STATUS)
  message(FATAL_ERROR "expected exit ${STATUS}, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(STATUS EQUAL 2)
  string(STRIP "${err}" e)
  string(FIND "${e}" "\n" nl)
  if(NOT nl EQUAL -1 OR NOT e MATCHES "^thmcheck: error: ")
    message(FATAL_ERROR "expected a one-line error, got:\n${err}")
  endif()
endif()
# Optional: stdout must match EXPECT_OUT (a regex).
if(DEFINED EXPECT_OUT AND NOT out MATCHES "${EXPECT_OUT}")
  message(FATAL_ERROR "stdout does not match '${EXPECT_OUT}':\n${out}")
endif()
message(STATUS "exit ${rc} as expected; stderr: ${err}")
