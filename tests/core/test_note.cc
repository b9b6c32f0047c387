#include "core/note.h"

#include <gtest/gtest.h>

namespace cobench {
namespace {

TEST(Note, ClausesAreJoinedBySemicolonsAndAnEmptyOneLeavesNoSeparator) {
  std::string note;
  append_note(note, "");
  EXPECT_EQ(note, "");
  append_note(note, "head crashed (SIGSEGV) in 2/6 runs");
  EXPECT_EQ(note, "head crashed (SIGSEGV) in 2/6 runs");
  append_note(note, "");
  append_note(note, "1 run without a partner dropped");
  EXPECT_EQ(note, "head crashed (SIGSEGV) in 2/6 runs; 1 run without a partner dropped");
}

TEST(Note, APrependedClauseLeadsAndAnEmptyNoteGetsNoSeparator) {
  std::string note;
  prepend_note(note, "not executed");
  EXPECT_EQ(note, "not executed");
  prepend_note(note, "");
  EXPECT_EQ(note, "not executed");
  std::string longer = "a; b";
  prepend_note(longer, "mark");
  EXPECT_EQ(longer, "mark; a; b");
}

TEST(Note, AClauseTheNoteAlreadySaysIsNotAddedAgain) {
  std::string note = "measures nothing";
  append_note_once(note, "measures nothing");
  EXPECT_EQ(note, "measures nothing");
  append_note_once(note, "head: 0.3 ns per iteration");
  EXPECT_EQ(note, "measures nothing; head: 0.3 ns per iteration");
  std::string empty;
  append_note_once(empty, "x");
  EXPECT_EQ(empty, "x");
}

}  // namespace
}  // namespace cobench
