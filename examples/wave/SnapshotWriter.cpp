//===- SnapshotWriter.cpp - Writes pictures on a thread of its own ---------===//
#include "SnapshotWriter.h"

#include "stencilc/Npy.h"

#include <algorithm>

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

SnapshotWriter::SnapshotWriter(int maxPending, bool png)
    : maxPending_(size_t(std::max(1, maxPending))), png_(png), thread_([this] { run(); }) {}

SnapshotWriter::~SnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void SnapshotWriter::submit(Snapshot snapshot) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < maxPending_ || error_; });
  rethrowError();
  queue_.push_back(std::move(snapshot));
  lock.unlock();
  changed_.notify_all();
}

void SnapshotWriter::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
  rethrowError();
}

int SnapshotWriter::written() const {
  std::lock_guard lock(mutex_);
  return written_;
}

void SnapshotWriter::rethrowError() {
  if (error_)
    std::rethrow_exception(error_);
}

void SnapshotWriter::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty())
      return; // stopping, and nothing left to write
    Snapshot next = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    changed_.notify_all(); // a slot is free for submit()
    std::exception_ptr failure;
    try {
      writeSnapshotFiles(next, png_);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    busy_ = false;
    if (failure && !error_)
      error_ = failure;
    written_ += !failure;
    changed_.notify_all();
  }
}

} // namespace wave
