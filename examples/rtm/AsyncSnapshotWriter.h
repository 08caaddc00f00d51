//===- AsyncSnapshotWriter.h - Snapshot files written by a thread of its own ===//
//
// The disk strategy's forward pass hands each snapshot to this writer and
// steps on while a thread writes the file (stencilc/io/BackgroundWriter.h;
// docs/SEISMIC.md §Reverse-time migration: the share of I/O hidden behind
// compute is reported). At most `maxPending` snapshots wait in memory; a
// faster time loop waits for the writer rather than piling them up. The first
// error (a directory that cannot be written, a full disk) is rethrown to the
// time loop, and nothing is written after it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "SnapshotFile.h"

#include "stencilc/io/BackgroundWriter.h"

#include <string>
#include <utility>
#include <vector>

namespace rtm {

class AsyncSnapshotWriter {
public:
  explicit AsyncSnapshotWriter(SnapshotShape shape, int maxPending = 4)
      : shape_(shape),
        writer_(
            [shape](const Job &job) { writeSnapshotFile(job.path, shape, job.step, job.values); },
            maxPending) {}

  /// Queues snapshot `step` for `path`; blocks while maxPending wait.
  /// Rethrows the writer's first error.
  void submit(std::string path, int step, std::vector<float> values) {
    writer_.submit({std::move(path), step, std::move(values)});
  }
  /// Waits until everything queued is written; rethrows the writer's first error.
  void drain() { writer_.drain(); }

  double writeSeconds() const { return writer_.writeSeconds(); }
  double blockedSeconds() const { return writer_.blockedSeconds(); }
  size_t peakPendingBytes() const {
    return writer_.peakPending() * shape_.points() * sizeof(float);
  }

private:
  struct Job {
    std::string path;
    int step;
    std::vector<float> values;
  };
  const SnapshotShape shape_;
  stencilc::rt::BackgroundWriter<Job> writer_;
};

} // namespace rtm
