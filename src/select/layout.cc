#include "select/layout.h"

#include <algorithm>
#include <cctype>
#include <set>

#include <fmt/format.h>

#include "select/source_text.h"

namespace cobench::select {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// How a registration macro's arguments name its family.
enum class Shape {
  Function,         ///< BENCHMARK(f): f
  Template,         ///< BENCHMARK_TEMPLATE(f, T...): f<T...>
  Capture,          ///< BENCHMARK_CAPTURE(f, name, args...): f
  TemplateCapture,  ///< BENCHMARK_TEMPLATEn_CAPTURE(f, T1..Tn, name, args...): f<T...>
  Fixture,          ///< BENCHMARK_F(Fixture, Method): Fixture/Method
  TemplateFixture,  ///< BENCHMARK_TEMPLATE_F(Fixture, Method, T...): Fixture<T...>/Method
  RegisterFixture,  ///< BENCHMARK_REGISTER_F: only when no DEFINE_F names the pair
};

struct Macro {
  std::string_view name;
  Shape shape;
  int template_args = 0;  ///< for TemplateCapture
  /// The name stringizes the template arguments as one #__VA_ARGS__ (blanks
  /// after commas as written), not as #a "," #b (a bare comma).
  bool variadic = false;
};

constexpr Macro kMacros[] = {
    {"BENCHMARK", Shape::Function, 0, true},
    {"BENCHMARK_TEMPLATE", Shape::Template, 0, true},
    {"BENCHMARK_TEMPLATE1", Shape::Template},
    {"BENCHMARK_TEMPLATE2", Shape::Template},
    {"BENCHMARK_CAPTURE", Shape::Capture},
    {"BENCHMARK_TEMPLATE1_CAPTURE", Shape::TemplateCapture, 1},
    {"BENCHMARK_TEMPLATE2_CAPTURE", Shape::TemplateCapture, 2},
    {"BENCHMARK_F", Shape::Fixture},
    {"BENCHMARK_DEFINE_F", Shape::Fixture},
    {"BENCHMARK_TEMPLATE_F", Shape::TemplateFixture, 0, true},
    {"BENCHMARK_TEMPLATE1_F", Shape::TemplateFixture},
    {"BENCHMARK_TEMPLATE2_F", Shape::TemplateFixture},
    {"BENCHMARK_TEMPLATE_DEFINE_F", Shape::TemplateFixture, 0, true},
    {"BENCHMARK_TEMPLATE1_DEFINE_F", Shape::TemplateFixture},
    {"BENCHMARK_TEMPLATE2_DEFINE_F", Shape::TemplateFixture},
    {"BENCHMARK_TEMPLATE_INSTANTIATE_F", Shape::TemplateFixture, 0, true},
    {"BENCHMARK_REGISTER_F", Shape::RegisterFixture},
};

const Macro* find_macro(std::string_view name) {
  for (const auto& m : kMacros)
    if (m.name == name) return &m;
  return nullptr;
}

/// Drops whitespace, except one blank between two words ("unsigned int",
/// "long double"): the identity of a family, however its registration is spaced.
std::string squeeze(std::string_view s) {
  std::string out;
  bool blank = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      blank = true;
      continue;
    }
    if (blank && !out.empty() && ident_char(out.back()) && ident_char(c)) out += ' ';
    blank = false;
    out += c;
  }
  return out;
}

/// Text as the preprocessor's # operator spells it (and so Google Benchmark's
/// names): each run of whitespace one blank, none at either end.
std::string stringize(std::string_view s) {
  std::string out;
  for (char c : s) {
    bool space = std::isspace(static_cast<unsigned char>(c));
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

/// Top-level comma-separated arguments of the call whose '(' is at `open`, as
/// written; `end` is set past the ')'. Angle brackets nest too (template arguments).
std::vector<std::string> split_args(std::string_view s, size_t open, size_t& end) {
  std::vector<std::string> args;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || (c == '>' && depth > 1)) --depth;
    if ((c == ',' && depth == 1) || depth == 0) {
      args.emplace_back(s.substr(start, i - start));
      start = i + 1;
    }
    if (depth == 0) {
      end = i + 1;
      return args;
    }
  }
  end = s.size();
  args.emplace_back(s.substr(start));
  return args;
}

using Spell = std::string (*)(std::string_view);

/// Arguments [from, to) joined by commas: each spelled on its own (#a "," #b),
/// or, `as_written`, the whole stretch spelled at once (#__VA_ARGS__).
std::string join(const std::vector<std::string>& args, size_t from, size_t to, Spell spell, bool as_written) {
  std::string out;
  to = std::min(to, args.size());
  for (size_t i = from; i < to; ++i)
    out += (i > from ? "," : "") + (as_written ? args[i] : spell(args[i]));
  return as_written ? spell(out) : out;
}

/// The family a registration names, spelled by `spell`: squeeze for identity,
/// stringize for the name Google Benchmark prints.
std::string family_name(const Macro& m, const std::vector<std::string>& a, Spell spell) {
  auto arg = [&](size_t i) { return i < a.size() ? spell(a[i]) : std::string(); };
  auto args = [&](size_t from, size_t to) { return join(a, from, to, spell, m.variadic); };
  switch (m.shape) {
    case Shape::Function: return args(0, a.size());
    case Shape::Capture: return arg(0);
    case Shape::Template: return arg(0) + "<" + args(1, a.size()) + ">";
    case Shape::TemplateCapture: return arg(0) + "<" + args(1, 1 + m.template_args) + ">";
    case Shape::Fixture:
    case Shape::RegisterFixture: return arg(0) + "/" + arg(1);
    case Shape::TemplateFixture: return arg(0) + "<" + args(2, a.size()) + ">/" + arg(1);
  }
  return arg(0);
}

/// Code lines and directive lines (with their continuations) of blanked text.
struct Split {
  std::string code;        ///< directives blanked out
  std::vector<std::string> defines;  ///< bodies of #define lines, continuations joined
};

Split split_directives(const std::string& text) {
  Split out{text, {}};
  size_t i = 0;
  while (i < text.size()) {
    size_t end = text.find('\n', i);
    if (end == std::string::npos) end = text.size();
    size_t first = text.find_first_not_of(" \t", i);
    if (first < end && text[first] == '#') {
      while (end < text.size() && end > i && text[end - 1] == '\\') end = std::min(text.find('\n', end + 1), text.size());
      std::string directive = text.substr(first + 1, end - first - 1);
      size_t name = directive.find_first_not_of(" \t");
      if (name != std::string::npos && directive.compare(name, 6, "define") == 0)
        out.defines.push_back(directive.substr(name + 6));
      for (size_t k = i; k < end; ++k)
        if (out.code[k] != '\n') out.code[k] = ' ';
    }
    i = end + 1;
  }
  return out;
}

/// Calls `f(name, position after name)` for each identifier in `s`.
template <class F>
void for_each_identifier(std::string_view s, F f) {
  for (size_t i = 0; i < s.size();) {
    if (std::isdigit(static_cast<unsigned char>(s[i]))) {  // a number, e.g. 1e5f: no identifiers in it
      while (i < s.size() && (ident_char(s[i]) || s[i] == '.')) ++i;
      continue;
    }
    if (!ident_char(s[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < s.size() && ident_char(s[i])) ++i;
    i = f(s.substr(start, i - start), i);
  }
}

size_t next_paren(std::string_view s, size_t pos) {
  size_t p = s.find_first_not_of(" \t\r\n", pos);
  return p != std::string_view::npos && s[p] == '(' ? p : std::string_view::npos;
}

bool registers(std::string_view body) {
  bool found = false;
  for_each_identifier(body, [&](std::string_view name, size_t pos) {
    found |= (find_macro(name) || name == "RegisterBenchmark") && next_paren(body, pos) != std::string_view::npos;
    return pos;
  });
  return found;
}

}  // namespace

FamilyCount count_families(std::string_view text) {
  Split split = split_directives(blank_comments_and_literals(text));
  // Macros whose bodies register: each use is its own family (the arguments
  // usually pick the instantiation, as in Eigen's FIXED_MAP_STABLE_NORM(Type, Label)).
  std::set<std::string, std::less<>> registering_macros;
  for (const auto& body : split.defines) {
    size_t start = body.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    size_t end = start;
    while (end < body.size() && ident_char(body[end])) ++end;
    if (registers(std::string_view(body).substr(end))) registering_macros.insert(body.substr(start, end - start));
  }

  FamilyCount count;
  std::set<std::string, std::less<>> seen;              // identities of count.families
  std::set<std::string, std::less<>> defined_fixtures;  // Fixture/Method pairs a *_F macro defined
  std::vector<std::pair<std::string, std::string>> registered_fixtures;  // identity, name
  auto add = [&](std::string identity, std::string name) {
    if (seen.insert(std::move(identity)).second) count.families.push_back(std::move(name));
  };
  constexpr Macro kPair{"", Shape::Fixture};
  std::string_view code = split.code;
  for_each_identifier(code, [&](std::string_view name, size_t pos) -> size_t {
    const Macro* macro = find_macro(name);
    size_t open = next_paren(code, pos);
    if (name == "RegisterBenchmark" && open != std::string_view::npos) {
      ++count.runtime_registrations;
      return pos;
    }
    if (registering_macros.count(name)) {
      if (open == std::string_view::npos) {
        add(std::string(name), std::string(name));
        return pos;
      }
      size_t end = open;
      auto args = split_args(code, open, end);
      add(fmt::format("{}({})", name, join(args, 0, args.size(), squeeze, false)),
          fmt::format("{}({})", name, join(args, 0, args.size(), stringize, true)));
      return end;
    }
    if (!macro || open == std::string_view::npos) return pos;
    size_t end = open;
    auto args = split_args(code, open, end);
    if (macro->shape == Shape::RegisterFixture) {
      registered_fixtures.emplace_back(family_name(*macro, args, squeeze), family_name(*macro, args, stringize));
      return end;
    }
    if (macro->shape == Shape::Fixture || macro->shape == Shape::TemplateFixture)
      defined_fixtures.insert(family_name(kPair, args, squeeze));
    add(family_name(*macro, args, squeeze), family_name(*macro, args, stringize));
    return end;
  });
  // BENCHMARK_REGISTER_F registers what a DEFINE_F defined: one family, unless nothing defined it here.
  for (auto& [identity, family] : registered_fixtures)
    if (!defined_fixtures.count(identity)) add(identity, family);
  return count;
}

std::string layout_warning(const std::string& source, const FamilyCount& count) {
  if (!count.suspicious()) return {};
  if (count.runtime_registrations > 0 && count.families.size() <= 1)
    return fmt::format("{} registers benchmarks at run time (RegisterBenchmark x{}): family count unknown", source,
                       count.runtime_registrations);
  std::string listed;
  for (size_t i = 0; i < count.families.size() && i < 4; ++i) listed += (i ? ", " : "") + count.families[i];
  if (count.families.size() > 4) listed += ", ...";
  return fmt::format("{} registers {} benchmark families in one translation unit ({}){}: deltas may be code layout",
                     source, count.families.size(), listed,
                     count.runtime_registrations ? " plus run-time registrations" : "");
}

}  // namespace cobench::select
