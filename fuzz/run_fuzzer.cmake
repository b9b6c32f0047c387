# cmake -DFUZZER=BIN -DSEEDS=DIR -DWORK=DIR -DSECONDS=N [-DSEED=S] [-DFRESH=ON] -P run_fuzzer.cmake
# Runs one libFuzzer binary for N seconds over the committed seeds. New inputs
# go to WORK/corpus (never into the committed seed folder), kept for the next
# run unless FRESH (the smoke tests: the same start every time). A crash, leak
# or timeout leaves its input in WORK as crash-*, leak-* or timeout-*, and the
# run fails.
if(NOT EXISTS "${FUZZER}")
  message("fuzz: skipped: ${FUZZER} is not built (make fuzz-build, or make test)")
  return()
endif()
if(FRESH)
  file(REMOVE_RECURSE "${WORK}")
endif()
file(MAKE_DIRECTORY "${WORK}/corpus")
set(options -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024
    -max_len=65536 -print_final_stats=1 -artifact_prefix=${WORK}/)
if(DEFINED SEED)
  list(APPEND options -seed=${SEED})
endif()
execute_process(COMMAND "${FUZZER}" ${options} "${WORK}/corpus" "${SEEDS}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "fuzz: ${FUZZER} failed (${status}); the input is in ${WORK}")
endif()
