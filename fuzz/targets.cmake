# The fuzz targets, shared by the fuzz build (fuzz/CMakeLists.txt) and the
# main build, which registers a short smoke run of each as a CTest test.
# Each target fuzz/fuzz_<name>.cc has its seed corpus in fuzz/corpus/<name>/.
set(COBENCH_FUZZ_TARGETS gbench_json go_bench results_jsonl config_toml include_scanner git_diff api_responses gcov_json
    benchmark_names merge_reports)

# The stages those parsers live in, and every stage they link.
set(COBENCH_FUZZ_STAGES core process stats formats verdict report config git cmake select results aggregate post)

# The clang build the smoke tests run the binaries of (make test builds it).
set(COBENCH_FUZZ_BUILD_DIR ${PROJECT_SOURCE_DIR}/build-fuzz CACHE PATH
    "The COBENCH_FUZZ build whose fuzz targets the fuzz_smoke_* tests run")
set(COBENCH_FUZZ_SMOKE_SECONDS 3 CACHE STRING "How long each fuzz_smoke_* test fuzzes")

# fuzz_smoke_<name>: runs the already built fuzzer over its seed corpus for a
# few seconds (fuzz/run_fuzzer.cmake). It builds nothing: without the fuzz
# build the test reports itself skipped.
function(cobench_fuzz_smoke_tests)
  foreach(name IN LISTS COBENCH_FUZZ_TARGETS)
    add_test(NAME fuzz_smoke_${name}
             COMMAND ${CMAKE_COMMAND} -DFUZZER=${COBENCH_FUZZ_BUILD_DIR}/fuzz/fuzz_${name}
                     -DSEEDS=${PROJECT_SOURCE_DIR}/fuzz/corpus/${name}
                     -DWORK=${CMAKE_BINARY_DIR}/fuzz-smoke/${name} -DSECONDS=${COBENCH_FUZZ_SMOKE_SECONDS}
                     -DSEED=1 -DFRESH=ON -P ${PROJECT_SOURCE_DIR}/fuzz/run_fuzzer.cmake)
    set_tests_properties(fuzz_smoke_${name} PROPERTIES LABELS fuzz TIMEOUT 300
                         SKIP_REGULAR_EXPRESSION "fuzz: skipped:")
  endforeach()
endfunction()
