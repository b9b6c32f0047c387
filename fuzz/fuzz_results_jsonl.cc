// results.jsonl as `cobench report` reads it back (also from a killed job's
// artifacts): the reader, then what the command does with what it accepted,
// the aggregation into a report and every renderer of it.
#include "fuzz_input.h"
#include "report/report.h"
#include "aggregate/aggregate.h"
#include "results/log.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cobench;
  fuzz::refusing_with([&] {
    results::ResultsFile file = results::parse_results(fuzz::text_of(data, size), "results.jsonl");
    report::Report report = aggregate::report_of(file, "results.jsonl");
    report::to_json(report).dump();
    report::render_table(report, true);
    report::render_markdown(report);
    report::render_junit(report);
    report::render_html(report);
  });
  return 0;
}
