#pragma once
// Escaping for the three markup outputs. Benchmark names come from user code
// (templates, CAPTURE labels, Go sub-benchmarks), so any byte can appear.
#include <string>
#include <string_view>

namespace cobench::report {

/// Replaces invalid UTF-8 sequences and control characters (C0 except tab,
/// DEL, C1) with U+FFFD so every output stays valid text and no name can drive
/// a terminal; newlines become spaces when `one_line`.
std::string sanitize_text(std::string_view text, bool one_line);

/// Text safe inside a GitHub/GitLab markdown table cell: no `|`, raw HTML,
/// code spans, emphasis, links or @mentions can come out of it; one line.
std::string escape_markdown(std::string_view text);

/// Text safe in XML/HTML element content and double- or single-quoted attributes.
std::string escape_xml(std::string_view text);

}  // namespace cobench::report
