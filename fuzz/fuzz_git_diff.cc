// `git diff --name-status -M -z` output as selection reads it.
#include "fuzz_input.h"
#include "git/git.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  fuzz::refusing_with<InfraError>([&] { git::parse_name_status_z(fuzz::text_of(data, size), "git diff"); });
  return 0;
}
