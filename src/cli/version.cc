#include "cli/version.h"

#ifndef COBENCH_VERSION
#define COBENCH_VERSION "0.0.0"
#endif

namespace cobench::cli {

const char* version() { return COBENCH_VERSION; }

}  // namespace cobench::cli
