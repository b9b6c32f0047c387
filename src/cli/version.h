#pragma once
// cobench's version, set by the build (CMake's project version).

namespace cobench::cli {

/// "0.1.0": what `cobench --version` prints after "cobench ".
const char* version();

}  // namespace cobench::cli
