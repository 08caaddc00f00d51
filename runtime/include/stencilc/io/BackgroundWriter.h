//===- BackgroundWriter.h - Files written by a thread of their own ---------===//
//
// A time loop hands each job (a snapshot to write) to this writer and steps
// on while a thread runs `write` on it, so output overlaps computation
// (docs/DESIGN.md §Runtime, docs/SEISMIC.md). At most `maxPending` jobs wait;
// a faster time loop waits for the writer rather than piling them up in
// memory. The first error `write` throws is handed back to the time loop by
// the next submit() or drain(); after it nothing more is written.
//
// Used by the wave example's snapshot pictures and the imaging example's
// disk strategy. Needs the program linked with the threads library.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>

namespace stencilc::rt {

template <typename Job> class BackgroundWriter {
public:
  explicit BackgroundWriter(std::function<void(const Job &)> write, int maxPending = 4)
      : write_(std::move(write)), maxPending_(std::size_t(std::max(1, maxPending))),
        thread_([this] { run(); }) {}

  /// Writes what is still queued (unless a write failed), then stops the
  /// thread. An error met here is dropped: drain() is where it is reported.
  ~BackgroundWriter() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  BackgroundWriter(const BackgroundWriter &) = delete;
  BackgroundWriter &operator=(const BackgroundWriter &) = delete;

  /// Queues `job`; blocks while `maxPending` are waiting. Rethrows the first
  /// error the writer met.
  void submit(Job job) {
    const auto start = Clock::now();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < maxPending_ || error_; });
    blockedSeconds_ += secondsSince(start);
    if (error_)
      std::rethrow_exception(error_);
    queue_.push_back(std::move(job));
    peakPending_ = std::max(peakPending_, queue_.size() + (busy_ ? 1 : 0));
    lock.unlock();
    changed_.notify_all();
  }

  /// Waits until everything queued is written; rethrows the writer's first error.
  void drain() {
    const auto start = Clock::now();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return (queue_.empty() && !busy_) || error_; });
    blockedSeconds_ += secondsSince(start);
    if (error_)
      std::rethrow_exception(error_);
  }

  /// Jobs written so far without an error.
  int written() const { return locked(written_); }
  /// Time the thread spent in `write`.
  double writeSeconds() const { return locked(writeSeconds_); }
  /// Time submit() and drain() waited for the thread.
  double blockedSeconds() const { return locked(blockedSeconds_); }
  /// The most jobs held at once: waiting, and the one being written.
  std::size_t peakPending() const { return locked(peakPending_); }

private:
  using Clock = std::chrono::steady_clock;
  static double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }
  template <typename T> T locked(const T &value) const {
    std::lock_guard lock(mutex_);
    return value;
  }

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty())
        return; // stopping, and nothing left to write
      Job job = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      const bool skip = bool(error_); // after a failure nothing more is written
      lock.unlock();
      changed_.notify_all(); // a slot is free for submit()
      std::exception_ptr failure;
      const auto start = Clock::now();
      if (!skip)
        try {
          write_(job);
        } catch (...) {
          failure = std::current_exception();
        }
      const double took = secondsSince(start);
      lock.lock();
      writeSeconds_ += took;
      busy_ = false;
      if (failure && !error_)
        error_ = failure;
      written_ += !skip && !failure;
      changed_.notify_all();
    }
  }

  const std::function<void(const Job &)> write_;
  const std::size_t maxPending_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool busy_ = false, stopping_ = false;
  std::exception_ptr error_;
  int written_ = 0;
  double writeSeconds_ = 0, blockedSeconds_ = 0;
  std::size_t peakPending_ = 0;
  std::thread thread_; // last: started once every member above exists
};

} // namespace stencilc::rt
