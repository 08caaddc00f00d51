//===- AsyncSnapshotWriter.h - Snapshot files written by a thread of its own ===//
//
// The disk strategy's forward pass hands each snapshot to this writer and
// steps on while a thread writes the file (docs/SEISMIC.md §Reverse-time
// migration: the share of I/O hidden behind compute is reported). At most
// `maxPending` snapshots wait in memory; a faster time loop waits for the
// writer rather than piling them up. The first error (a directory that
// cannot be written, a full disk) is rethrown to the time loop.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "SnapshotFile.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace rtm {

class AsyncSnapshotWriter {
public:
  AsyncSnapshotWriter(SnapshotShape shape, int maxPending = 4);
  /// Finishes what is queued (errors then are dropped: drain() reports them).
  ~AsyncSnapshotWriter();
  AsyncSnapshotWriter(const AsyncSnapshotWriter &) = delete;
  AsyncSnapshotWriter &operator=(const AsyncSnapshotWriter &) = delete;

  /// Queues snapshot `step` for `path`; blocks while maxPending wait.
  /// Rethrows the writer's first error.
  void submit(std::string path, int step, std::vector<float> values);
  /// Waits until everything queued is written; rethrows the writer's first error.
  void drain();

  double writeSeconds() const;   ///< time the thread spent writing
  double blockedSeconds() const; ///< time submit() and drain() waited
  size_t peakPendingBytes() const;

private:
  struct Job {
    std::string path;
    int step;
    std::vector<float> values;
  };
  void run();

  const SnapshotShape shape_;
  const size_t maxPending_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr error_;
  double writeSeconds_ = 0, blockedSeconds_ = 0;
  size_t peakPending_ = 0;
  std::thread thread_;
};

} // namespace rtm
