//===- RunConfig.cpp ------------------------------------------------------===//
#include "target/RunConfig.h"

#include <fmt/format.h>

namespace stencilc::target {

std::string RunConfig::describe() const {
  auto tiles = [](int y, int z) {
    return y || z ? fmt::format("{} x {}", y ? std::to_string(y) : "default",
                                z ? std::to_string(z) : "default")
                  : std::string("default");
  };
  auto xTiles = [](int x) { return x ? fmt::format(", x tiles of {} points", x) : std::string(); };
  std::string t = variant;
  if (variant == "blocked" || variant == "planes" || blockY || blockZ || blockX)
    t += ", tiles " + tiles(blockY, blockZ) + xTiles(blockX);
  if (timeDepth == 1)
    return t + ", single sweeps";
  return t +
         fmt::format(", {} steps per pass, time tiles {}", timeDepth, tiles(timeTileY, timeTileZ)) +
         xTiles(timeTileX);
}

} // namespace stencilc::target
