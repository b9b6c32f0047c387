#include "results/record.h"

namespace cobench::results {

std::string to_string(Side side) { return side == Side::Base ? "base" : "head"; }

std::optional<Side> side_from_string(const std::string& text) {
  if (text == "base") return Side::Base;
  if (text == "head") return Side::Head;
  return std::nullopt;
}

}  // namespace cobench::results
