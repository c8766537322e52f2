# Run by CTest before it runs anything (TEST_INCLUDE_FILES): the per-claim tests, generated from the registry as the
# built binary reports it (`thmcheck list --json`), so a new claim file is tested with no list to edit.
#   claim.<id>.as_expected      run at the default precisions (double and mp50, with the ladder: what make run does for
#                               the claim): exit 0, the resolved verdict is the expected one (holds, or violated for a
#                               documented finding)
#   claim.<id>.control_caught   --negative-control at double (the ladder re-checks its violations at mp50 and mp100):
#                               the broken variant is violated; where the claim certifies its control, the control's
#                               worst case is certified violated too (tests/cli/control_caught.cmake)
#   claim.<id>.tighten          inequality and trajectory claims: the tightness search finds a best ratio
#   certify.<id>.claim|control  the claim's (or its control's) interval certificates on 2 cases at double (4, then 16, if none is judged),
#                               its reported cases certified: in the sanitizer build only, which skips claim.*
#   corpus.<expected>.<file>    tests/corpus/<expected classification>/<claim>-<hash>.json replayed with explore, and
#                               certified too when the claim has an interval evaluation
# Inputs (set by tests/CMakeLists.txt through the generated include file): THM, EXPECT, SCRATCH, TESTS_DIR, SANITIZED.
execute_process(COMMAND ${THM} list --json RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  add_test(claims.listed ${CMAKE_COMMAND} -E echo "thmcheck list --json failed (${rc}): ${err}")
  set_tests_properties(claims.listed PROPERTIES WILL_FAIL TRUE)
  return()
endif()
string(JSON count LENGTH "${json}")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON id GET "${json}" ${i} id)
  string(JSON kind GET "${json}" ${i} kind)
  string(JSON certified_${id} GET "${json}" ${i} interval_certification)
  add_test(claim.${id}.as_expected ${CMAKE_COMMAND} -DCMD=${THM}
           "-DARGS=run|--claims|${id}|--report|${SCRATCH}/claim/${id}" -DSTATUS=0 -P ${EXPECT})
  string(JSON certified_control GET "${json}" ${i} interval_certification_control)
  if(certified_control)
    set(certify reported)
  else()
    set(certify none)
  endif()
  add_test(claim.${id}.control_caught ${CMAKE_COMMAND} -DCMD=${THM}
           "-DARGS=run|--claims|${id}|--precision|double|--negative-control|--certify|${certify}|--report|${SCRATCH}/control/${id}"
           -DSTATUS=0 -DCERTIFIED=${certified_control} -DID=${id} -DREPORT=${SCRATCH}/control/${id} -P ${TESTS_DIR}/cli/control_caught.cmake)
  # Every certifying claim's certificates, and its control's, on a few cases at double (tests/cli/certify_cases.cmake),
  # in the sanitizer build only: there the claim.* tests are skipped; in the optimised build they certify the same
  # reported cases at the default budget.
  if(SANITIZED)
    foreach(variant claim control)
      if(variant STREQUAL "claim")
        set(certifies ${certified_${id}})
        set(flag "")
      else()
        set(certifies ${certified_control})
        set(flag "|--negative-control")
      endif()
      if(certifies)
        add_test(certify.${id}.${variant} ${CMAKE_COMMAND} -DCMD=${THM} -DID=${id} -DREPORT=${SCRATCH}/certify/${id}-${variant}
                 "-DARGS=run|--claims|${id}|--precision|double|--cases|@CASES@|--seed|13|--certify|reported${flag}|--report|${SCRATCH}/certify/${id}-${variant}"
                 -P ${TESTS_DIR}/cli/certify_cases.cmake)
      endif()
    endforeach()
  endif()
  # A small budget: 8 random starts, so that a claim discarding 40% of its instances (qin.gd.linear_rate) has one to
  # climb from with probability 1 - 0.4^8.
  if(kind STREQUAL "inequality" OR kind STREQUAL "trajectory")
    add_test(claim.${id}.tighten ${CMAKE_COMMAND} -DCMD=${THM} "-DARGS=tighten|${id}|--evaluations|40|--out|${SCRATCH}/tighten/${id}"
             -DSTATUS=0 -P ${EXPECT})
  endif()
endforeach()
# The corpus: a claim with an interval evaluation must be certified violated if genuine, holds if a rounding artifact.
foreach(expect genuine rounding-artifact)
  file(GLOB corpus ${TESTS_DIR}/corpus/${expect}/*.json)
  string(REPLACE "-" " " expect_text ${expect})
  foreach(f IN LISTS corpus)
    get_filename_component(name ${f} NAME_WLE)
    string(REGEX REPLACE "-[0-9a-f]+$" "" claim ${name})
    set(cert "")
    if(certified_${claim})
      if(expect STREQUAL "genuine")
        set(cert "-DCERT=certified violated")
      else()
        set(cert "-DCERT=certified holds")
      endif()
    endif()
    add_test(corpus.${expect}.${name} ${CMAKE_COMMAND} -DCMD=${THM} -DCLAIM=${claim} -DFILE=${f} "-DEXPECT=${expect_text}" ${cert}
             -P ${TESTS_DIR}/cli/corpus_replay.cmake)
  endforeach()
endforeach()
