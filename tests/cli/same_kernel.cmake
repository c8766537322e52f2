# run writes the same report, byte for byte, whichever kernel runs the double products of the [Q] model
# (numerics/ordered_gemm.hpp): the widest this CPU has, and SSE2 (THM_GEMM_ISA=sse2), which every x86-64 has. The
# claims whose double rows rest on the model's gradient and forward pass, cheap ones (the training claims take minutes).
file(REMOVE_RECURSE ${DIR})
foreach(isa widest sse2)
  if(isa STREQUAL "widest")
    set(env "")
  else()
    set(env THM_GEMM_ISA=${isa})
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${env} ${CMD} run --claims qin.gd.descent_lemma,qin.gd.gradient_step,qin.pl.*
                          --cases 20 --seed 5 --certify none --report ${DIR}/${isa} RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0 AND NOT rc EQUAL 1)  # 1: a verdict not as expected at this small budget; the bytes still compare
    message(FATAL_ERROR "run with kernel ${isa} exited ${rc}")
  endif()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/same_report.cmake)
same_report(${DIR}/widest ${DIR}/sse2 "the widest kernel and SSE2")
