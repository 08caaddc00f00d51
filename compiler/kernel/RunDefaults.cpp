//===- RunDefaults.cpp ----------------------------------------------------===//
#include "kernel/RunDefaults.h"

#include <fmt/format.h>

#include <vector>

namespace stencilc::kernel {

std::string timeTilingObstacle(const ir::Stencil &s) {
  std::vector<bool> rotated(s.fields.size(), false);
  bool outputs = false;
  for (const ir::Field &f : s.fields)
    if (f.role == ir::FieldRole::Output) {
      if (f.advances < 0)
        return "output '" + f.name + "' advances no time level";
      outputs = true;
      rotated[size_t(f.advances)] = true;
      if (f.overwrites >= 0)
        rotated[size_t(f.overwrites)] = true;
    }
  if (!outputs)
    return "no output advances a time level";
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].role == ir::FieldRole::Time && !rotated[f])
      return "time level '" + s.fields[f].name +
             "' is neither advanced nor overwritten by an output";
  return {};
}

bool isTimeTileable(const ir::Stencil &s) { return timeTilingObstacle(s).empty(); }

target::RunConfig untunedRunConfig(const ir::Stencil &s) {
  target::RunConfig run;
  run.timeDepth = isTimeTileable(s) ? kUntunedTimeDepth : 1;
  return run;
}

RunDefaults untunedRunDefaults(const ir::Stencil &s) {
  RunDefaults d;
  d.run = untunedRunConfig(s);
  d.origin = d.run.timeDepth > 1
                 ? fmt::format("rt::RunOptions' defaults, and {} time steps per pass for "
                               "rt::runTimeTiled\n(Stencilc's docs/PERFORMANCE.md §Default time "
                               "tiles and depth).",
                               d.run.timeDepth)
                 : "rt::RunOptions' defaults and single sweeps (" + timeTilingObstacle(s) + ").";
  return d;
}

} // namespace stencilc::kernel
