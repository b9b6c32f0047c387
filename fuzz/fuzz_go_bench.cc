// `go test -bench` text (benchstat's format) as `cobench compare` and the Go runner read it.
#include "formats/formats.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  fuzz::refusing_with([&] { formats::parse_go_bench(fuzz::text_of(data, size), "bench.txt"); });
  return 0;
}
