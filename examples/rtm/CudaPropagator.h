//===- CudaPropagator.h - The fd8 wave step on the device ------------------===//
//
// The CUDA path's counterpart of wave::Propagator for the fd8 operator
// (docs/SEISMIC.md §The CUDA path): the two wavefield levels, c2 = (vΔt/h)²
// and the damping in device memory, stepped by the CUDA kernels
// `stencilc gen --backend cuda` makes of examples/wave/acoustic8_sponge.stencil
// (forward) or of its adjoint (`--adjoint`), in place, on one stream. A step
// adds the values of its injection points to the new level on the device,
// as wave::Propagator::step does on the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CudaMigration.h"
#include "DeviceKernels.h"

#include "stencilc/Grid.h"
#include "stencilc/cuda/DeviceBuffer.h"
#include "stencilc/cuda/DeviceGrid.h"

#include <array>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;
namespace cu = stencilc::cuda;

enum class CudaDirection { Forward, Adjoint };

class CudaPropagator {
public:
  /// Fields of the velocity model's shape (its halo at least the kernels' radius, 4).
  CudaPropagator(const rt::Grid<float> &velocity, const rt::Grid<float> &damping, double h,
                 double dt, CudaDirection direction, CudaVariant variant, cudaStream_t stream);

  /// The wavefield at t and t−Δt.
  cu::DeviceGrid<float> &current() { return *current_; }
  cu::DeviceGrid<float> &previous() { return *previous_; }
  /// The level the next step writes (in place over previous()).
  cu::DeviceGrid<float> &next() { return *previous_; }

  /// One step queued on the stream: the kernel's sweep, then values[r]
  /// added at points r of the new level (values: a device array of
  /// points.size() floats; none when null), then the levels rotate.
  void step(const device::DevicePoints &points, const float *values);

  /// Both levels back to zero (the halo too), as at the start.
  void reset();

  cudaStream_t stream() const { return stream_; }

private:
  cu::DeviceGrid<float> levelA_, levelB_, c2_, damping_;
  cu::DeviceGrid<float> *current_, *previous_;
  rt::Grid<float> zero_; ///< uploaded by reset()
  CudaDirection direction_;
  CudaVariant variant_;
  cudaStream_t stream_;
};

} // namespace rtm
