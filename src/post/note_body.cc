// Notes have size limits (GitHub comments: 65,536 characters); a report that
// does not fit is cut at a line, keeping the markdown well formed.
#include <fmt/format.h>

#include "post/post.h"

namespace cobench::post {
namespace {

size_t count(std::string_view text, std::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

std::string note_body(std::string_view markdown, size_t max_chars) {
  std::string body;
  if (markdown.find(kMarker) == std::string_view::npos) body = fmt::format("{}\n", kMarker);
  if (body.size() + markdown.size() <= max_chars) return body + std::string(markdown);

  constexpr std::string_view kCut = "\n\n**The report was cut here to fit the note; the full report.md is in the job artifacts.**\n";
  size_t overhead = body.size() + kCut.size() + 200;  // 200: room for closing tags
  size_t room = max_chars > overhead ? max_chars - overhead : 0;
  std::string_view kept = markdown.substr(0, room);
  if (size_t line = kept.rfind('\n'); line != std::string_view::npos) kept = kept.substr(0, line + 1);
  body += kept;
  size_t opened = count(kept, "<details>"), closed = count(kept, "</details>");
  for (size_t i = closed; i < opened && i < closed + 20; ++i) body += "\n</details>\n";
  return body + std::string(kCut);
}

}  // namespace cobench::post
