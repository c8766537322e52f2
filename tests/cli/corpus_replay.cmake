# Replays a corpus counterexample with `explore` and checks its recorded classification.
execute_process(COMMAND ${CMD} explore ${CLAIM} --instance ${FILE} --digits 30,60 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "explore failed (${rc}): ${err}")
endif()
if(NOT out MATCHES "classification: ${EXPECT}")
  message(FATAL_ERROR "expected classification ${EXPECT}, got:\n${out}")
endif()
message(STATUS "${out}")
# With CERT (the claim has an interval evaluation; tests/cli/claim_tests.cmake): the certification must say it too
# (explore --interval at 60 digits).
if(DEFINED CERT)
  execute_process(COMMAND ${CMD} explore ${CLAIM} --instance ${FILE} --digits 30,60 --interval RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "interval certification: ${CERT}")
    message(FATAL_ERROR "expected interval certification '${CERT}' (exit ${rc}):\n${out}${err}")
  endif()
  message(STATUS "${out}")
endif()
