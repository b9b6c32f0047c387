#pragma once
// One captured output stream of a child, with a size cap: a benchmark that
// prints a gigabyte leaves its first and last kilobytes and a line saying how
// much was cut between them. Used by process::run on the bytes it reads from
// the child's pipes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cobench::process {

/// Keeps the first and the last `keep` bytes of a stream and replaces the
/// middle with "[cobench: 1,048,576,000 bytes cut here]" on its own line.
/// The head goes out as it arrives (a log file shows a running child's
/// start), the tail when finish() knows it is the tail.
class BoundedOutput {
 public:
  /// keep == 0 keeps everything; fd >= 0 writes to that file (not owned),
  /// fd < 0 collects into text().
  BoundedOutput(std::size_t keep, int fd);
  /// The next bytes of the stream.
  void append(std::string_view bytes);
  /// Emits the cut line (when bytes were cut) and the tail; call once, at the end.
  void finish();
  /// The kept text when collecting in memory, complete after finish().
  std::string& text() { return text_; }

 private:
  void emit(std::string_view bytes);
  void keep_in_tail(std::string_view bytes);

  std::size_t keep_;
  int fd_;
  std::uint64_t total_ = 0;   ///< bytes seen so far
  std::string text_;
  std::string tail_;          ///< a ring of at most keep_ bytes, oldest at tail_start_
  std::size_t tail_start_ = 0;
};

/// "1,048,576,000": a byte count as the cut line shows it.
std::string group_thousands(std::uint64_t value);

}  // namespace cobench::process
