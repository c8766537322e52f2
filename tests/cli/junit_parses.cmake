# The JUnit file of a run with a failing negative control is accepted by Python's XML parser.
execute_process(COMMAND ${CMD} run --claims qin.softmax.*,qin.residual.sigma* --cases 10 --precision double,mp50
                        --negative-control --report ${DIR} OUTPUT_QUIET RESULT_VARIABLE rc)
if(rc EQUAL 2)
  message(FATAL_ERROR "run failed with a usage error")
endif()
find_program(PYTHON3 python3 REQUIRED)
execute_process(COMMAND ${PYTHON3} ${CHECK} ${DIR}/junit.xml RESULT_VARIABLE rc2 OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc2 EQUAL 0)
  message(FATAL_ERROR "junit.xml rejected: ${out}${err}")
endif()
message(STATUS "${out}")
