// gcov's JSON intermediate format as the reach pass reads it (`gcov
// --json-format --stdout`: one document per line), including the function
// spans whose lines without code count as run.
#include "formats/gcov_json.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  std::string_view text = fuzz::text_of(data, size);
  fuzz::refusing_with([&] { formats::parse_gcov_json(text, "gcov output"); });
  return 0;
}
