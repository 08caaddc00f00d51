//===- Progress.h - A progress line for long loops on a terminal -----------===//
//
//   wave: 1200/5000 steps, 310 steps/s, 12 s left
//
// rewritten in place on stderr at most four times a second, and only when
// stderr is a terminal: a log file or a pipe gets nothing from it, so output
// that is kept stays clean. note() prints a whole line (to the terminal or
// not) without mangling the progress line. Used by the wave and rtm examples'
// time loops and `stencilc bench --search` (docs/SEISMIC.md, docs/PERFORMANCE.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <unistd.h>

namespace stencilc::rt {

/// "45 s", "3 min 05 s", "2 h 07 min": a duration to the precision a person reads.
inline std::string formatDuration(double seconds) {
  char text[64];
  const long s = std::lround(std::max(0.0, seconds));
  if (s < 60)
    std::snprintf(text, sizeof text, "%ld s", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%ld h %02ld min", s / 3600, s / 60 % 60);
  return text;
}

/// "LABEL: DONE/TOTAL UNIT, RATE UNIT/s, T left" after `seconds` of work; no
/// rate or time left before there is something to measure.
inline std::string formatProgress(const std::string &label, long done, long total, double seconds,
                                  const std::string &unit) {
  char text[256];
  if (done <= 0 || seconds <= 0) {
    std::snprintf(text, sizeof text, "%s: %ld/%ld %s", label.c_str(), done, total, unit.c_str());
    return text;
  }
  const double rate = done / seconds;
  const char *format =
      rate >= 100 ? "%s: %ld/%ld %s, %.0f %s/s, %s left" : "%s: %ld/%ld %s, %.3g %s/s, %s left";
  std::snprintf(text, sizeof text, format, label.c_str(), done, total, unit.c_str(), rate,
                unit.c_str(), formatDuration((total - done) / rate).c_str());
  return text;
}

class Progress {
public:
  /// Shows progress on `out` when `enabled`; by default, when `out` is a terminal.
  Progress(std::string label, long total, std::string unit, std::FILE *out = stderr)
      : Progress(std::move(label), total, std::move(unit), out, isatty(fileno(out)) != 0) {}
  Progress(std::string label, long total, std::string unit, std::FILE *out, bool enabled)
      : label_(std::move(label)), unit_(std::move(unit)), out_(out), total_(total),
        enabled_(enabled), start_(Clock::now()), lastDraw_(start_) {}
  ~Progress() { finish(); }
  Progress(const Progress &) = delete;
  Progress &operator=(const Progress &) = delete;

  bool enabled() const { return enabled_; }

  /// `done` of the total are finished; redraws when a quarter second has
  /// passed since the last time, or at the end.
  void advance(long done) {
    done_ = done;
    if (!enabled_)
      return;
    const auto now = Clock::now();
    if (drawn_ && done < total_ && now - lastDraw_ < std::chrono::milliseconds(250))
      return;
    lastDraw_ = now;
    draw();
  }

  /// `steps` more of the total are finished (a loop that counts in several places).
  void advanceBy(long steps) { advance(done_ + steps); }
  long done() const { return done_; }

  /// Prints `line` whole, keeping the progress line below it.
  void note(const std::string &line) {
    if (drawn_)
      std::fputs("\r\033[K", out_);
    std::fprintf(out_, "%s\n", line.c_str());
    if (drawn_)
      draw();
    std::fflush(out_);
  }

  /// Erases the progress line (the loop's own output follows).
  void finish() {
    if (drawn_)
      std::fputs("\r\033[K", out_);
    drawn_ = false;
    std::fflush(out_);
  }

private:
  using Clock = std::chrono::steady_clock;
  void draw() {
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    std::fprintf(out_, "\r\033[K%s", formatProgress(label_, done_, total_, seconds, unit_).c_str());
    std::fflush(out_);
    drawn_ = true;
  }

  std::string label_, unit_;
  std::FILE *out_;
  long total_, done_ = 0;
  bool enabled_, drawn_ = false;
  Clock::time_point start_, lastDraw_;
};

} // namespace stencilc::rt
