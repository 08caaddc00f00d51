//===- DeviceKernels.h - The imaging example's small kernels on the device ===//
//
// What the CUDA path of the imaging example does on the device besides the
// generated stencil kernels, and the grid points it does it at (docs/SEISMIC.md §The CUDA path):
// adding the source's or the receivers' values to the new wavefield, recording the wavefield at the
// receivers, copying a wavefield's interior, and the imaging condition. Each is queued on `stream`;
// every pointer is a device pointer. The arithmetic is the CPU path's (Migration.cpp), term for
// term, so that the emulator reproduces it bit for bit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"
#include "stencilc/cuda/Cuda.h"
#include "stencilc/cuda/DeviceBuffer.h"
#include "stencilc/cuda/DeviceGrid.h"

#include <array>
#include <cstddef>
#include <vector>

namespace rtm::device {

namespace rt = stencilc::rt;

/// Grid points on the device, as offsets from a grid's origin.
class DevicePoints {
public:
  DevicePoints() = default;
  /// Throws std::invalid_argument naming a point outside the interior of
  /// `shape` or given twice (one thread adds at each point, so they must differ).
  DevicePoints(const std::vector<std::array<int, 3>> &points, const rt::GridShape &shape);
  int size() const { return int(offsets_.size()); }
  const std::ptrdiff_t *offsets() const { return offsets_.data(); }

private:
  stencilc::cuda::DeviceBuffer<std::ptrdiff_t> offsets_;
};

/// field[offsets[r]] += values[r] for r < count, one thread each. The
/// offsets (from the field's origin) must be distinct: threads do not
/// serialise on a shared point.
void addAt(rt::FieldView<float> field, const std::ptrdiff_t *offsets, const float *values,
           int count, cudaStream_t stream);

/// out[r] = field[offsets[r]] for r < count.
void gatherAt(rt::FieldView<const float> field, const std::ptrdiff_t *offsets, float *out,
              int count, cudaStream_t stream);

/// The interior of `from` into that of `to` (the halo of `to` is not written).
void copyInterior(rt::FieldView<const float> from, rt::FieldView<float> to, rt::Extent extent,
                  cudaStream_t stream);

/// At every interior point n (x fastest): cross[n] += u·(λ − λ_later) and
/// illumination[n] += u·u, in double, as ShotRun::image does on the CPU.
void image(rt::FieldView<const float> u, rt::FieldView<const float> lambda,
           rt::FieldView<const float> later, rt::Extent extent, double *cross, double *illumination,
           cudaStream_t stream);

} // namespace rtm::device
