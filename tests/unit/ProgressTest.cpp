//===- ProgressTest.cpp - The progress line of long loops ------------------===//
//
// runtime/include/stencilc/io/Progress.h: the line's text (rate, time left), that
// a disabled line (stderr not a terminal) writes nothing, and that an enabled
// one rewrites itself in place, keeps notes whole and is erased at the end.
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/Progress.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

using namespace stencilc::rt;

namespace {

/// Everything written to `f` so far.
std::string contents(std::FILE *f) {
  std::fflush(f);
  std::rewind(f);
  std::string text;
  for (int c; (c = std::fgetc(f)) != EOF;)
    text += char(c);
  return text;
}

TEST(Progress, DurationsReadAsAPersonSaysThem) {
  EXPECT_EQ(formatDuration(0.4), "0 s");
  EXPECT_EQ(formatDuration(45), "45 s");
  EXPECT_EQ(formatDuration(185), "3 min 05 s");
  EXPECT_EQ(formatDuration(2 * 3600 + 7 * 60 + 30), "2 h 07 min");
}

TEST(Progress, LineGivesRateAndTimeLeft) {
  EXPECT_EQ(formatProgress("wave", 0, 5000, 0, "steps"), "wave: 0/5000 steps");
  // 1200 steps in 4 s: 300 steps/s, 3800 left take 12.7 s.
  EXPECT_EQ(formatProgress("wave", 1200, 5000, 4, "steps"),
            "wave: 1200/5000 steps, 300 steps/s, 13 s left");
  EXPECT_EQ(formatProgress("bench", 3, 30, 6, "tiles"),
            "bench: 3/30 tiles, 0.5 tiles/s, 54 s left");
}

TEST(Progress, DisabledWritesOnlyNotes) {
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("wave", 10, "steps", f, false);
    for (long i = 1; i <= 10; ++i)
      p.advance(i);
    p.note("bench: planes by=4 bz=8: 0.1 s");
  }
  EXPECT_EQ(contents(f), "bench: planes by=4 bz=8: 0.1 s\n");
  std::fclose(f);
}

TEST(Progress, AdvanceByCountsFromWhereItWas) {
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("rtm", 10, "steps", f, false);
    p.advanceBy(3);
    p.advanceBy(4);
    EXPECT_EQ(p.done(), 7);
    p.advance(9);
    p.advanceBy(1);
    EXPECT_EQ(p.done(), 10);
  }
  EXPECT_EQ(contents(f), ""); // disabled: nothing drawn
  std::fclose(f);
}

TEST(Progress, EnabledRewritesOneLineAndErasesIt) {
  std::FILE *f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  {
    Progress p("wave", 3, "steps", f, true);
    p.advance(1); // first draw
    p.advance(2); // within a quarter second: not redrawn
    p.note("a note");
    p.advance(3); // the end is always drawn
  }
  const std::string text = contents(f);
  const std::string erase = "\r\033[K";
  // Drawn at 1, not at 2, erased for the note and redrawn with the latest
  // count, drawn at 3, erased by the destructor.
  EXPECT_EQ(text.substr(0, erase.size() + 17), erase + "wave: 1/3 steps, ");
  const auto note = text.find(erase + "a note\n" + erase + "wave: 2/3 steps");
  EXPECT_NE(note, std::string::npos) << text;
  EXPECT_EQ(text.find("wave: 2/3"), note + erase.size() * 2 + 7) << text; // only there
  EXPECT_NE(text.find(erase + "wave: 3/3 steps, "), std::string::npos) << text;
  EXPECT_EQ(text.substr(text.size() - erase.size()), erase);
  EXPECT_EQ(text.find('\n'), text.find("a note") + 6); // the only newline is the note's
  std::fclose(f);
}

} // namespace
