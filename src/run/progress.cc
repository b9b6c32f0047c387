#include "run/progress.h"

// Placeholder: the real renderer lands with the run work.
namespace cobench::run {
Progress::Progress(std::FILE* out, bool tty) : out_(out), tty_(tty) {}
void Progress::update(const ProgressState&) {}
void Progress::message(const std::string& text) { std::fprintf(out_, "%s\n", text.c_str()); }
void Progress::finish() {}
}  // namespace cobench::run
