// The time metric a comparison reads from each entry.
#include "core/errors.h"
#include "formats/formats.h"

namespace cobench::formats {

Metric metric_from_string(const std::string& text) {
  if (text == "real_time") return Metric::RealTime;
  if (text == "cpu_time") return Metric::CpuTime;
  throw InputError("unknown metric \"" + text + "\" (expected real_time or cpu_time)");
}

std::string to_string(Metric metric) { return metric == Metric::RealTime ? "real_time" : "cpu_time"; }

const std::vector<double>& samples(const Entry& entry, Metric metric) {
  return metric == Metric::RealTime ? entry.real_ns : entry.cpu_ns;
}

}  // namespace cobench::formats
