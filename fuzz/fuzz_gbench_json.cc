// Google Benchmark JSON as `cobench compare` and the runs read it, directly
// and through the content sniffing that picks JSON or Go text.
#include "formats/formats.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::refusing_with([&] { formats::parse_google_benchmark_json(text, "bench.json"); });
  fuzz::refusing_with([&] { formats::read_output(text, "bench.out"); });
  return 0;
}
