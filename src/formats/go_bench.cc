#include "core/errors.h"
#include "formats/formats.h"

// Placeholder until the Go reader lands (issue 5).
namespace cobench::formats {

Output parse_go_bench(std::string_view, const std::string& source) {
  throw InputError(source + ": Go benchmark output is not supported yet");
}

}  // namespace cobench::formats
