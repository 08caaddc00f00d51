//===- SnapshotWriter.h - Writes pictures on a thread of its own -----------===//
//
// Snapshot output overlaps computation, as in docs/DESIGN.md §Runtime [2]. Here the time
// loop copies the slices it wants to keep (small next to a step) and hands
// them to a writer thread (stencilc/io/BackgroundWriter.h), which encodes the
// PNG and .npy files while the next steps compute. At most `maxPending`
// snapshots wait; a faster producer waits for the writer rather than piling
// up memory; a write's error is rethrown by the next submit() or drain().
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/io/BackgroundWriter.h"
#include "stencilc/io/Png.h"

#include <string>

namespace wave {

namespace rt = stencilc::rt;

/// One picture to write: `<stem>.png` and `<stem>.npy`.
struct Snapshot {
  std::string stem;
  rt::Image2D image;
  double lo = 0, hi = 0; ///< colour range; a diverging image uses [-clip, clip]
  rt::ColourMap map = rt::ColourMap::Diverging;
  int scale = 1; ///< pixels per value along each axis
};

/// Writes the values as a 2D .npy file (rows, columns) and, with `png`, the image as PNG.
void writeSnapshotFiles(const Snapshot &snapshot, bool png = true);

/// Writes each snapshot's files (writeSnapshotFiles) on the writer thread.
class SnapshotWriter : public rt::BackgroundWriter<Snapshot> {
public:
  /// With `png` false only the .npy files are written (scripts/plot.py draws the figures).
  explicit SnapshotWriter(int maxPending = 4, bool png = true)
      : BackgroundWriter([png](const Snapshot &s) { writeSnapshotFiles(s, png); }, maxPending) {}
};

} // namespace wave
