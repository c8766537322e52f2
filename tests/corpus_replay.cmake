# Replays a corpus counterexample with `explore` and checks its recorded classification.
execute_process(COMMAND ${CMD} explore ${CLAIM} --instance ${FILE} --digits 30,60 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "explore failed (${rc}): ${err}")
endif()
if(NOT out MATCHES "classification: ${EXPECT}")
  message(FATAL_ERROR "expected classification ${EXPECT}, got:\n${out}")
endif()
message(STATUS "${out}")
