// C/C++ sources as selection reads them: the include scanner, the comment and
// literal blanking under it, and the benchmark-family count. None of them may
// refuse text; the blanking must keep the length and every line break, or the
// scanner's line numbers would point elsewhere.
#include <cstdlib>

#include "fuzz_input.h"
#include "select/include_scanner.h"
#include "select/layout.h"
#include "select/source_text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  std::string_view text = fuzz::text_of(data, size);
  std::string blanked = select::blank_comments_and_literals(text);
  if (blanked.size() != text.size()) std::abort();
  for (size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '\n') != (blanked[i] == '\n')) std::abort();
  int lines = 1;
  for (char c : text) lines += c == '\n';
  for (const auto& directive : select::scan_includes(text))
    if (directive.line < 1 || directive.line > lines || (directive.spelling.empty() && !directive.macro)) std::abort();
  select::count_families(text);
  return 0;
}
