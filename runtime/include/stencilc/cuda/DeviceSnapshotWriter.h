//===- DeviceSnapshotWriter.h - Device grid snapshots written as steps run ===//
//
// As in docs/DESIGN.md §Runtime [2]: a snapshot of the wavefield goes to disk
// every few steps,
// and the PCIe transfer and the disk write are hidden behind the steps that
// follow. The writer owns a copy stream, a few pinned host grids and a
// worker thread:
//
//   write(grid, path, compute)
//       queues on the copy stream, after the work already queued on
//       `compute`, a copy of `grid` into a free host grid, and hands the
//       file write to the worker. It returns at once unless every host grid
//       is still being written (then it waits for the oldest).
//   protect(grid, compute)
//       makes `compute` wait for the copies still reading `grid`. Call it
//       before queuing work that overwrites `grid` (two steps later with
//       three time levels; at once when updating in place).
//   finish()
//       waits for every file, and throws the first write error.
//   writeSeconds()
//       the worker's time on files so far, to set against the time the
//       caller waited in write() and finish() (how much of the I/O was hidden).
//
// Files are .npy (Npy.h) of the interior. Under the emulator the copies are
// synchronous and only the file writes overlap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/cuda/DeviceGrid.h"
#include "stencilc/cuda/Streams.h"
#include "stencilc/io/Npy.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stencilc::cuda {

template <typename T> class DeviceSnapshotWriter {
public:
  /// Snapshots of grids of `shape` through `hostBuffers` pinned host grids.
  explicit DeviceSnapshotWriter(const rt::GridShape &shape, int hostBuffers = 2) : shape_(shape) {
    if (hostBuffers < 1)
      throw std::invalid_argument("DeviceSnapshotWriter: needs at least one host buffer");
    STENCILC_CUDA_CHECK(cudaGetDevice(&device_));
    for (int n = 0; n < hostBuffers; ++n)
      slots_.push_back(std::make_unique<Slot>(shape));
    worker_ = std::thread([this] { work(); });
  }

  /// Waits for the queued files; an error is lost here (call finish() to see it).
  ~DeviceSnapshotWriter() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
  }

  DeviceSnapshotWriter(const DeviceSnapshotWriter &) = delete;
  DeviceSnapshotWriter &operator=(const DeviceSnapshotWriter &) = delete;

  void write(const DeviceGrid<T> &grid, std::string path, cudaStream_t compute) {
    if (!(grid.shape() == shape_))
      throw std::invalid_argument("DeviceSnapshotWriter: grid of another shape");
    std::unique_lock lock(mutex_);
    rethrowError();
    Slot *slot = nullptr;
    changed_.wait(lock, [&] {
      for (auto &s : slots_)
        if (!s->busy)
          slot = s.get();
      return slot != nullptr || error_;
    });
    rethrowError();
    // The copy stream waits for the step that produced `grid`, not for later ones.
    stepDone_.record(compute);
    stepDone_.makeWait(copyStream_);
    grid.download(slot->host, copyStream_);
    slot->copied.record(copyStream_);
    slot->source = grid.origin();
    slot->busy = true;
    queue_.push_back({slot, std::move(path)});
    changed_.notify_all();
  }

  void protect(const DeviceGrid<T> &grid, cudaStream_t compute) {
    std::lock_guard lock(mutex_);
    for (auto &s : slots_)
      if (s->busy && s->source == grid.origin())
        s->copied.makeWait(compute);
  }

  void finish() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      if (!queue_.empty())
        return false;
      for (auto &s : slots_)
        if (s->busy)
          return false;
      return true;
    });
    rethrowError();
  }

  /// Files written so far.
  int written() const {
    std::lock_guard lock(mutex_);
    return written_;
  }

  /// Seconds the worker spent on files (waiting for each copy, then writing it).
  double writeSeconds() const {
    std::lock_guard lock(mutex_);
    return writeSeconds_;
  }

private:
  struct Slot {
    explicit Slot(const rt::GridShape &shape) : host(shape) {
      // Pinned, so that the device-to-host copy is a real asynchronous DMA.
      STENCILC_CUDA_CHECK(cudaHostRegister(host.storage(), host.storageElements() * sizeof(T),
                                           cudaHostRegisterDefault));
    }
    ~Slot() { cudaHostUnregister(host.storage()); }
    rt::Grid<T> host;
    Event copied;
    const T *source = nullptr; ///< the device grid being copied
    bool busy = false;         ///< copying or waiting to be written
  };

  struct Job {
    Slot *slot;
    std::string path;
  };

  void work() {
    cudaSetDevice(device_); // the runtime's current device is per host thread
    std::unique_lock lock(mutex_);
    for (;;) {
      changed_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty())
        return;
      Job job = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      std::exception_ptr failure;
      const auto start = std::chrono::steady_clock::now();
      try {
        job.slot->copied.synchronize();
        rt::writeNpy(job.slot->host, job.path);
      } catch (...) {
        failure = std::current_exception();
      }
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      lock.lock();
      writeSeconds_ += took.count();
      if (failure && !error_)
        error_ = failure;
      if (!failure)
        ++written_;
      job.slot->busy = false;
      changed_.notify_all();
    }
  }

  void rethrowError() {
    if (error_)
      std::rethrow_exception(std::exchange(error_, nullptr));
  }

  rt::GridShape shape_;
  int device_ = 0;
  Stream copyStream_;
  Event stepDone_;
  std::vector<std::unique_ptr<Slot>> slots_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  bool stopping_ = false;
  int written_ = 0;
  double writeSeconds_ = 0;
  std::exception_ptr error_;
  std::thread worker_;
};

} // namespace stencilc::cuda
