# The bench scripts at a tiny size, so that a renamed benchmark or a changed output cannot leave them printing nan or
# nothing (bench/README.md): mp_speed.sh with one product size and one repetition, svd_vs_mpmath.sh at N = 8, and
# gd_step_side_by_side.py with one short round (PyTorch optional: its columns are left out without it). Each must exit 0
# and print every row it promises, each with a number, none with nan.
#   -DSOURCE_DIR=the repository -DBUILD_DIR=the build holding bench/thmcheck_bench
function(run_script what expect_rows)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} exited ${rc}:\n${out}\n${err}")
  endif()
  string(TOLOWER "${out}" lower)
  if(lower MATCHES "nan")
    message(FATAL_ERROR "${what} printed nan:\n${out}")
  endif()
  foreach(row ${expect_rows})
    if(NOT out MATCHES "${row}")
      message(FATAL_ERROR "${what}: no row matching '${row}' in\n${out}")
    endif()
  endforeach()
  message(STATUS "${what}:\n${out}")
endfunction()

run_script("bench/mp_speed.sh"
           "8 x 8 product at 50 digits: MPFR loop / Ozaki \\| [0-9.]+x;8 x 8 product at 100 digits: MPFR loop / Ozaki \\| [0-9.]+x;GD step at mp50 / double step \\| [0-9]+x;GD step at mp100 / double step \\| [0-9]+x"
           ${CMAKE_COMMAND} -E env SIZES=8 REPETITIONS=1 MIN_TIME=0.01 ${SOURCE_DIR}/bench/mp_speed.sh ${BUILD_DIR})
run_script("bench/svd_vs_mpmath.sh"
           "  8     50 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+;  8    100 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+"
           ${CMAKE_COMMAND} -E env THMCHECK_BENCH=${BUILD_DIR}/bench/thmcheck_bench ${SOURCE_DIR}/bench/svd_vs_mpmath.sh 8)
run_script("bench/gd_step_side_by_side.py"
           "\\| bench \\([0-9, ]+\\) \\| [0-9.]+ us \\|"
           /usr/bin/python3 ${SOURCE_DIR}/bench/gd_step_side_by_side.py --build ${BUILD_DIR} --repeat 1 --min-time 0.01 --shapes bench)
