# thmcheck stability gives the same table and JSON whatever the number of worker processes.
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
foreach(jobs 1 3)
  execute_process(COMMAND ${CMD} stability --seeds 2..6 --claims qin.softmax.rank_collapse,demo.fp.one_pass_variance --precision double
                          --cases 30 --jobs ${jobs} --out ${DIR}/j${jobs}.json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out${jobs})
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "stability --jobs ${jobs} exited ${rc}:\n${out${jobs}}")
  endif()
endforeach()
file(READ ${DIR}/j1.json a)
file(READ ${DIR}/j3.json b)
if(NOT a STREQUAL b OR NOT out1 STREQUAL out3)
  message(FATAL_ERROR "stability output depends on --jobs:\n${out1}\n---\n${out3}")
endif()
message(STATUS "same output with 1 and 3 workers")
