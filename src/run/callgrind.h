#pragma once
// Running a benchmark process under valgrind's callgrind and reading what it
// counted. Callgrind, not cachegrind: valgrind 3.19 (Debian 12) gives only
// callgrind client requests to zero and dump the counters from inside the
// process, which is how a preloaded library fences the counts to the
// benchmark loop (src/loop); cachegrind gained start/stop requests in 3.22.
// Both simulate the same I1/D1/LL caches with --cache-sim=yes.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "verdict/instructions.h"

namespace cobench::run {

/// valgrind's argv prefix for one process under callgrind, writing its dumps
/// to `out_file` (those it is asked for to out_file.1, .2, ..., the end to out_file).
/// The caches are fixed, not the host's, so counts and miss ratios do not
/// depend on the runner's CPU: I1 and D1 32 KiB 8-way, LL 8 MiB 16-way, 64-byte lines.
/// With `preloaded` (the callgrind preload is in LD_PRELOAD) no thread
/// collects until the library says so; without, everything is collected.
std::vector<std::string> callgrind_command(const std::filesystem::path& out_file, bool preloaded);

/// One callgrind dump: why it was written and its event totals.
struct CallgrindDump {
  std::string trigger;             ///< "Client Request: cobench loop", "Program termination", ...
  verdict::CacheEvents events;
};

/// Reads a callgrind output file's "desc: Trigger:", "events:" and
/// "summary:" (else "totals:") lines; events callgrind leaves off the end of
/// a line are zeros. Throws InputError naming `source` when a line is malformed
/// or the file has no totals.
CallgrindDump parse_callgrind_dump(std::string_view text, const std::string& source);

/// What one process counted.
struct ProcessCounts {
  verdict::CacheEvents events;
  bool loop_only = false;          ///< the preload fenced the counting to the loop; false: the whole process
};

/// The counts of the process that wrote `out_file`: its dump named
/// loop::kLoopDumpName (the preload's, at exit), or the dump at its end when
/// there is none. Throws InputError when no dump is there.
ProcessCounts read_process_counts(const std::filesystem::path& out_file);

/// Events per iteration from two processes that ran `fewer` and `more`
/// iterations of the same benchmark: (more − fewer) / (iterations difference),
/// which cancels everything both ran once (start-up, setup, the first
/// iteration's lazy binding, the window's own edges).
verdict::CacheEvents per_iteration(const verdict::CacheEvents& fewer, double fewer_iterations,
                                   const verdict::CacheEvents& more, double more_iterations);

}  // namespace cobench::run
