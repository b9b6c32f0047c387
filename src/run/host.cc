#include "run/host.h"

// Placeholder: the real collector lands with the run work.
namespace cobench::run {
nlohmann::json collect_host_context(const std::string&) { return nlohmann::json::object(); }
int last_online_cpu() { return 0; }
}  // namespace cobench::run
