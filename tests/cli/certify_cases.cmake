# certify.<id>.<variant> (tests/cli/claim_tests.cmake): runs CMD with ARGS ('|'-separated: one claim at double with
# --certify reported; @CASES@ stands for the case count) on 2 cases, or on 4, then 16, while all were discarded, and checks
# that the run finished (exit 0, or 1: on a few cases a control need not come out violated) and that REPORT/claims/ID.json
# carries the interval certificates of its reported cases (the worst, and the ladder's), at least one. The point is the
# certification code of every certifying claim and control run at least once under the sanitizers, whose build skips
# the claim.* tests (a control's certificate once added a 1 x 1 interval matrix to a d x d one, which no other test
# ran). --certify all was 456 s of CPU there, 326 s of it qin.gd.linear_rate's (16 cases run, 6 judged); at 2 cases, then
# 16, 230 s, half of it the two qin.gd controls (each violated case climbs the ladder at mp50 and mp100 and is certified).
foreach(cases 2 4 16)
  string(REPLACE "@CASES@" "${cases}" a "${ARGS}")
  string(REPLACE "|" ";" args "${a}")
  execute_process(COMMAND ${CMD} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT (rc EQUAL 0 OR rc EQUAL 1))
    message(FATAL_ERROR "expected exit 0 or 1, got ${rc}\nstdout:\n${out}\nstderr:\n${err}")
  endif()
  file(READ ${REPORT}/claims/${ID}.json json)
  string(JSON run GET "${json}" runs 0 cases_run)
  string(JSON discarded GET "${json}" runs 0 cases_discarded)
  math(EXPR judged "${run} - ${discarded}")
  if(judged GREATER 0)
    break()
  endif()
endforeach()
if(judged EQUAL 0)
  message(FATAL_ERROR "${ID}: all ${run} cases were discarded, so nothing was certified")
endif()
string(JSON attempted ERROR_VARIABLE no_cert GET "${json}" runs 0 certification attempted)
if(no_cert)
  message(FATAL_ERROR "${ID}: no certification in the report (${no_cert})")
endif()
if(attempted LESS 1)
  message(FATAL_ERROR "${ID}: ${judged} cases judged, none certified")
endif()
message(STATUS "${ID}: ${attempted} certified of ${judged} judged, ${run} run (exit ${rc})")
