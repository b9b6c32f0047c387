// GitHub renders $GITHUB_STEP_SUMMARY on the workflow run page.
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "post/post.h"

namespace cobench::post {

void append_step_summary(const std::string& path, const std::string& markdown) {
  std::ofstream out(path, std::ios::app | std::ios::binary);
  if (out) out << markdown << (markdown.ends_with("\n") ? "\n" : "\n\n");
  out.flush();
  if (!out) throw InfraError(fmt::format("{}: cannot append the job summary (GITHUB_STEP_SUMMARY): {}", path, std::strerror(errno)));
}

}  // namespace cobench::post
