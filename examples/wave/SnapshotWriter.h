//===- SnapshotWriter.h - Writes pictures on a thread of its own -----------===//
//
// Snapshot output overlaps computation, as in docs/DESIGN.md §Runtime [2]. Here the time
// loop copies the slices it wants to keep (small next to a step) and hands
// them to a writer thread, which encodes the PNG and .npy files while the
// next steps compute. At most `maxPending` snapshots wait; a faster producer
// waits for the writer rather than piling up memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Png.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

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

class SnapshotWriter {
public:
  /// With `png` false only the .npy files are written (scripts/plot.py draws the figures).
  explicit SnapshotWriter(int maxPending = 4, bool png = true);
  /// Writes what is still queued, then stops the thread.
  ~SnapshotWriter();
  SnapshotWriter(const SnapshotWriter &) = delete;
  SnapshotWriter &operator=(const SnapshotWriter &) = delete;

  /// Queues a snapshot; blocks while `maxPending` are waiting. Rethrows the
  /// first error the writer met (e.g. a directory that cannot be written).
  void submit(Snapshot snapshot);
  /// Waits until everything queued is written; rethrows the writer's error.
  void drain();
  /// Snapshots written so far.
  int written() const;

private:
  void run();
  void rethrowError();

  const size_t maxPending_;
  const bool png_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Snapshot> queue_;
  bool busy_ = false, stopping_ = false;
  int written_ = 0;
  std::exception_ptr error_;
  std::thread thread_;
};

/// Writes the values as a 2D .npy file (rows, columns) and, with `png`, the image as PNG.
void writeSnapshotFiles(const Snapshot &snapshot, bool png = true);

} // namespace wave
