// results.jsonl as `cobench report` reads it back (also from a killed job's artifacts).
#include "fuzz_input.h"
#include "results/log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  fuzz::refusing_with([&] { results::parse_results(fuzz::text_of(data, size), "results.jsonl"); });
  return 0;
}
