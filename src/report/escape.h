#pragma once
// Escaping for the three markup outputs. Benchmark names come from user code
// (templates, CAPTURE labels, Go sub-benchmarks), so any byte can appear.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/secrets.h"

namespace cobench::report {

/// Text every output can show: bytes that are not UTF-8 written as "\xE9"
/// (as results.jsonl stores them); control characters (C0 except tab, DEL,
/// C1) and the characters that reorder or break what follows (bidirectional
/// overrides, isolates and marks, U+2028/U+2029) replaced by U+FFFD, so no
/// name can drive a terminal or make it show something else than is there;
/// newlines and tabs become spaces when `one_line`.
std::string sanitize_text(std::string_view text, bool one_line);

/// Text safe inside a GitHub/GitLab markdown table cell: no `|`, raw HTML,
/// code spans, emphasis, links or @mentions can come out of it; one line.
std::string escape_markdown(std::string_view text);

/// Text safe in XML/HTML element content and double- or single-quoted attributes.
std::string escape_xml(std::string_view text);

/// A setting's or host fact's value as text for people: a string as it is,
/// anything else as JSON; shortened past 4 KiB, saying its size (a benchmark
/// argument may be megabytes).
std::string value_text(const nlohmann::json& value);

/// `secrets` and the forms the markdown and XML escaping gives their values
/// ("ghp\\_abc" in markdown): what a rendered report is scrubbed of.
std::vector<secrets::Secret> as_rendered(const std::vector<secrets::Secret>& secrets);

/// A rendered report (markdown, HTML, XML, the terminal table) without the
/// values of this process's credentials, escaped or not (secrets::scrub).
std::string scrub_rendered(std::string_view text);

}  // namespace cobench::report
