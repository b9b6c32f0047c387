// cobench.toml: the TOML parser, then the key table's checks of every value.
#include <string>

#include "config/config.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  fuzz::refusing_with([&] {
    config::Config config = config::parse(std::string(fuzz::text_of(data, size)), "cobench.toml");
    config::validate(config);
  });
  return 0;
}
