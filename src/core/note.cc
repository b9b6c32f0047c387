#include "core/note.h"

namespace cobench {

namespace {
constexpr std::string_view kClauseSeparator = "; ";
}  // namespace

void append_note(std::string& note, std::string_view clause) {
  if (clause.empty()) return;
  if (!note.empty()) note += kClauseSeparator;
  note += clause;
}

void prepend_note(std::string& note, std::string_view clause) {
  if (clause.empty()) return;
  std::string rest = std::move(note);
  note = clause;
  append_note(note, rest);
}

void append_note_once(std::string& note, std::string_view clause) {
  if (note.find(clause) == std::string::npos) append_note(note, clause);
}

}  // namespace cobench
