//===- AsyncSnapshotWriter.cpp - Snapshot files written by a thread ---------===//
#include "AsyncSnapshotWriter.h"

#include <algorithm>
#include <chrono>

namespace rtm {

namespace {
double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
} // namespace

AsyncSnapshotWriter::AsyncSnapshotWriter(SnapshotShape shape, int maxPending)
    : shape_(shape), maxPending_(size_t(std::max(1, maxPending))), thread_([this] { run(); }) {}

AsyncSnapshotWriter::~AsyncSnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void AsyncSnapshotWriter::submit(std::string path, int step, std::vector<float> values) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < maxPending_ || error_; });
  blockedSeconds_ += secondsSince(start);
  if (error_)
    std::rethrow_exception(error_);
  queue_.push_back({std::move(path), step, std::move(values)});
  peakPending_ = std::max(peakPending_, queue_.size() + (busy_ ? 1 : 0));
  lock.unlock();
  changed_.notify_all();
}

void AsyncSnapshotWriter::drain() {
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
  blockedSeconds_ += secondsSince(start);
  if (error_)
    std::rethrow_exception(error_);
}

double AsyncSnapshotWriter::writeSeconds() const {
  std::lock_guard lock(mutex_);
  return writeSeconds_;
}
double AsyncSnapshotWriter::blockedSeconds() const {
  std::lock_guard lock(mutex_);
  return blockedSeconds_;
}
size_t AsyncSnapshotWriter::peakPendingBytes() const {
  std::lock_guard lock(mutex_);
  return peakPending_ * shape_.points() * sizeof(float);
}

void AsyncSnapshotWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty())
      return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    const bool skip = bool(error_); // after a failure nothing more is written
    lock.unlock();
    changed_.notify_all();
    std::exception_ptr failure;
    const auto start = std::chrono::steady_clock::now();
    if (!skip)
      try {
        writeSnapshotFile(job.path, shape_, job.step, job.values);
      } catch (...) {
        failure = std::current_exception();
      }
    const double took = secondsSince(start);
    lock.lock();
    writeSeconds_ += took;
    busy_ = false;
    if (failure && !error_)
      error_ = failure;
    changed_.notify_all();
  }
}

} // namespace rtm
