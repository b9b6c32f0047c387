#pragma once
// How a row's note is written: clauses joined by "; ", each a phrase that
// stands alone ("head crashed (SIGSEGV) in 2/6 runs; 1 run without a partner
// dropped"). Every stage that adds to a note goes through these, so the
// separator has one home and an empty clause never leaves a stray "; ".
#include <string>
#include <string_view>

namespace cobench {

/// Adds `clause` after the note's clauses; nothing when it is empty.
void append_note(std::string& note, std::string_view clause);

/// Puts `clause` before the note's clauses (a mark that changes how the rest
/// reads); nothing when it is empty.
void prepend_note(std::string& note, std::string_view clause);

/// Adds `clause` unless the note already says it.
void append_note_once(std::string& note, std::string_view clause);

}  // namespace cobench
