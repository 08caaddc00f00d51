//===- Streams.h - Owned CUDA streams and events ---------------------------===//
//
// RAII handles, so that a stream or event is destroyed on every path, with
// every call checked. As in docs/DESIGN.md §Runtime [2], the stencil runs on
// one stream and the snapshot transfers on another; events order the two and
// time kernels.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/cuda/Cuda.h"

#include <utility>

namespace stencilc::cuda {

class Stream {
public:
  /// A stream that does not synchronise with the legacy default stream.
  Stream() { STENCILC_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (stream_)
      cudaStreamDestroy(stream_);
  }
  Stream(Stream &&other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream &operator=(Stream &&other) noexcept {
    std::swap(stream_, other.stream_);
    return *this;
  }
  Stream(const Stream &) = delete;
  Stream &operator=(const Stream &) = delete;

  cudaStream_t get() const { return stream_; }
  operator cudaStream_t() const { return stream_; }

  void synchronize() const { STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

private:
  cudaStream_t stream_ = nullptr;
};

class Event {
public:
  enum class Timing { Off, On };
  explicit Event(Timing timing = Timing::Off) {
    STENCILC_CUDA_CHECK(cudaEventCreateWithFlags(
        &event_, timing == Timing::On ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_)
      cudaEventDestroy(event_);
  }
  Event(Event &&other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event &operator=(Event &&other) noexcept {
    std::swap(event_, other.event_);
    return *this;
  }
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;

  cudaEvent_t get() const { return event_; }

  /// Completes when the work queued on `stream` so far has.
  void record(cudaStream_t stream) { STENCILC_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  /// Work queued on `stream` from now on starts after this event completes.
  void makeWait(cudaStream_t stream) const {
    STENCILC_CUDA_CHECK(cudaStreamWaitEvent(stream, event_, 0));
  }
  void synchronize() const { STENCILC_CUDA_CHECK(cudaEventSynchronize(event_)); }

  /// Milliseconds from `start` to this event (both recorded with Timing::On).
  float millisecondsSince(const Event &start) const {
    float ms = 0;
    STENCILC_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

private:
  cudaEvent_t event_ = nullptr;
};

} // namespace stencilc::cuda
