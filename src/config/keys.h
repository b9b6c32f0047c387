#pragma once
// The key table behind Config: for every key, how a value is read from a
// TOML node or from text, the one check it must pass, and where it is
// stored. cobench.toml, the environment and the flags all come through here.
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "config/config.h"

namespace cobench::config {

/// A value rejected by its key, before the origin is put in front.
struct ValueError {
  const toml::node* node = nullptr;  ///< the offending node (an array item, say); nullptr for text
  std::string what;
};

/// The keys of one cobench.toml section ("run"), as their names within it ("min_runs").
std::vector<std::string_view> section_keys(std::string_view section);

/// Sets `key` from a TOML node; throws ValueError (the loader adds the position).
void set_from_node(Config& config, std::string_view key, const toml::node& node, const Origin& origin);

/// A [[budget.override]]'s own values, read and checked like their [budget]
/// namesakes; throw ValueError.
double time_budget_of(const toml::node& node);
config::Threshold threshold_of(const toml::node& node);
std::string regex_of(const toml::node& node);

/// min_runs <= max_runs, blaming the later layer; throws InputError.
void check_run_counts(const Config& config);

/// The TOML type of a node, for messages: "string", "integer", "table"...
std::string_view type_name(const toml::node& node);

}  // namespace cobench::config
