#include "process/bounded_output.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "core/text.h"

namespace cobench::process {

BoundedOutput::BoundedOutput(std::size_t keep, int fd) : keep_(keep), fd_(fd) {}

void BoundedOutput::append(std::string_view bytes) {
  if (keep_ == 0) {
    emit(bytes);
    return;
  }
  if (total_ < keep_) {
    const std::size_t head = std::min<std::size_t>(keep_ - total_, bytes.size());
    emit(bytes.substr(0, head));
    total_ += head;
    bytes.remove_prefix(head);
  }
  total_ += bytes.size();
  keep_in_tail(bytes);
}

void BoundedOutput::keep_in_tail(std::string_view bytes) {
  if (bytes.size() >= keep_) {  // replaces the whole ring
    tail_.assign(bytes.substr(bytes.size() - keep_));
    tail_start_ = 0;
    return;
  }
  const std::size_t room = std::min(keep_ - tail_.size(), bytes.size());
  tail_.append(bytes.substr(0, room));
  bytes.remove_prefix(room);
  while (!bytes.empty()) {  // the ring is full: overwrite the oldest bytes
    const std::size_t n = std::min(keep_ - tail_start_, bytes.size());
    tail_.replace(tail_start_, n, bytes.substr(0, n));
    tail_start_ = (tail_start_ + n) % keep_;
    bytes.remove_prefix(n);
  }
}

void BoundedOutput::finish() {
  const std::uint64_t head = std::min<std::uint64_t>(total_, keep_);
  const std::uint64_t cut = total_ - head - tail_.size();
  if (cut > 0) emit(fmt::format("{}{} byte{}{}", kLogCutOpen, group_thousands(cut), cut == 1 ? "" : "s", kLogCutClose));
  emit(std::string_view(tail_).substr(tail_start_));
  emit(std::string_view(tail_).substr(0, tail_start_));
  tail_.clear();
  tail_start_ = 0;
}

void BoundedOutput::emit(std::string_view bytes) {
  if (fd_ < 0) {
    text_.append(bytes);
    return;
  }
  // A log that cannot be written (disk full) loses bytes; the child must still run to its end.
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

std::string group_thousands(std::uint64_t value) {
  std::string digits = std::to_string(value), grouped;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
    grouped += digits[i];
  }
  return grouped;
}

}  // namespace cobench::process
