//===- SnapshotWriter.cpp - A snapshot's picture and array files ----------===//
#include "SnapshotWriter.h"

#include "stencilc/io/Npy.h"

namespace wave {

void writeSnapshotFiles(const Snapshot &s, bool png) {
  if (png)
    rt::writePng(s.stem + ".png", s.image, s.lo, s.hi, s.map, s.scale);
  rt::Grid<float> values = rt::Grid<float>::make2d(s.image.width, s.image.height, 0);
  for (int y = 0; y < s.image.height; ++y)
    for (int x = 0; x < s.image.width; ++x)
      values(x, y) = s.image.at(x, y);
  rt::writeNpy(values, s.stem + ".npy");
}

} // namespace wave
