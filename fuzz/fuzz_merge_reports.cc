// `cobench merge`: the results.jsonl of several shards (the input's parts,
// split at lines "---"), each read as `cobench merge` reads a shard folder,
// joined into one report and rendered every way. Folders that are not shards
// of one job are refused with InputError; anything else that escapes, a
// crash or a sanitizer report is a finding.
#include <string>
#include <vector>

#include "formats/json_text.h"
#include "fuzz_input.h"
#include "report/report.h"
#include "aggregate/merge.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  const std::string_view text = fuzz::text_of(data, size);
  std::vector<std::string_view> parts;
  for (size_t from = 0; from <= text.size() && parts.size() < 4;) {
    size_t end = text.find("\n---\n", from);
    if (end == std::string_view::npos) end = text.size();
    parts.push_back(text.substr(from, end - from));
    from = end + 5;
  }
  fuzz::refusing_with([&] {
    std::vector<aggregate::ShardFolder> shards;
    for (size_t i = 0; i < parts.size(); ++i) {
      const std::string folder = "shard-" + std::to_string(i + 1);
      shards.push_back({folder, results::parse_results(parts[i], folder + "/results.jsonl")});
    }
    const report::Report merged = aggregate::merge_shards(shards, "merged");
    formats::dump_json(report::to_json(merged), 2);
    report::render_table(merged, true);
    report::render_markdown(merged);
    report::render_junit(merged);
    report::render_html(merged);
  });
  return 0;
}
