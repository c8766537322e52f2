# run --jobs N writes the same report, byte for byte, as --jobs 1 (cases are folded in case order).
file(REMOVE_RECURSE ${DIR})
foreach(jobs 1 3)
  execute_process(COMMAND ${CMD} run --claims qin.softmax.*,qin.residual.weyl*,qin.pl.output_layer,goel.population.invariances,goel.geometry.one_point*,demo.*
                          --cases 20 --seed 5 --jobs ${jobs} --report ${DIR}/j${jobs} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "run --jobs ${jobs} exited ${rc}")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/same_report.cmake)
same_report(${DIR}/j1 ${DIR}/j3 "--jobs 1 and --jobs 3")
