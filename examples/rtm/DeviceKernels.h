//===- DeviceKernels.h - The imaging example's small kernels on the device ===//
//
// What the CUDA path of the imaging example does on the device besides the
// generated stencil kernels, and the grid points it does it at (docs/SEISMIC.md
// §The CUDA path): adding the source's or the receivers' values to the new
// wavefield (on or off the grid), recording the wavefield at the receivers,
// copying a wavefield's interior, and the imaging condition. Each is queued on
// `stream`; every pointer is a device pointer. The arithmetic is the CPU
// path's (Migration.cpp, OffGrid.h), term for term, so that the emulator
// reproduces it bit for bit.
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

/// One grid point of a station and its weight.
struct WeightedPoint {
  std::array<int, 3> point{};
  double weight = 1;
};

/// Stations on the device: a source or receivers, each a list of weighted
/// grid points (one point of weight 1 on the grid; off it, the corners of its
/// cell, OffGrid.h). Both operations keep the CPU path's arithmetic
/// (Migration.cpp, OffGrid.h), so that the emulator reproduces it bit for bit:
///
///   record   station r reads Σ weight·u over its points in their order, in
///            double, rounded to float once (OffGrid.h `record`);
///   inject   values[r] (float or double) goes to each point of station r as
///            float(weight·values[r]), added to the float field
///            (wave::Propagator::step). Stations may share points (receivers
///            closer than a cell): one thread per distinct point adds every
///            station's term there in station order, as the CPU loop does, and
///            no two threads write one point.
class DeviceStations {
public:
  DeviceStations() = default;
  /// Throws std::invalid_argument naming a point outside the interior of
  /// `shape` (with its station). A station without points records 0 and
  /// injects nothing, as on the CPU path.
  DeviceStations(const std::vector<std::vector<WeightedPoint>> &stations,
                 const rt::GridShape &shape);
  /// Stations of one point each, of weight 1.
  static DeviceStations atPoints(const std::vector<std::array<int, 3>> &points,
                                 const rt::GridShape &shape);

  int size() const { return stations_; }
  /// Distinct grid points over all stations.
  int points() const { return int(pointOffset_.size()); }

  /// out[r] for r < size() (device array).
  void record(rt::FieldView<const float> field, float *out, cudaStream_t stream) const;
  /// values: size() elements (device array).
  void inject(rt::FieldView<float> field, const float *values, cudaStream_t stream) const;
  void inject(rt::FieldView<float> field, const double *values, cudaStream_t stream) const;

private:
  int stations_ = 0;
  /// Recording: station r's points are entries [stationBegin_[r], stationBegin_[r + 1]).
  stencilc::cuda::DeviceBuffer<int> stationBegin_;
  stencilc::cuda::DeviceBuffer<std::ptrdiff_t> entryOffset_;
  stencilc::cuda::DeviceBuffer<double> entryWeight_;
  /// Injection: distinct point p (offset pointOffset_[p]) takes terms
  /// [pointBegin_[p], pointBegin_[p + 1]) of termStation_ and termWeight_.
  stencilc::cuda::DeviceBuffer<std::ptrdiff_t> pointOffset_;
  stencilc::cuda::DeviceBuffer<int> pointBegin_, termStation_;
  stencilc::cuda::DeviceBuffer<double> termWeight_;
};

/// The interior of `from` into that of `to` (the halo of `to` is not written).
void copyInterior(rt::FieldView<const float> from, rt::FieldView<float> to, rt::Extent extent,
                  cudaStream_t stream);

/// At every interior point n (x fastest): cross[n] += u·(λ − λ_later) and
/// illumination[n] += u·u, in double, as ShotRun::image does on the CPU.
void image(rt::FieldView<const float> u, rt::FieldView<const float> lambda,
           rt::FieldView<const float> later, rt::Extent extent, double *cross, double *illumination,
           cudaStream_t stream);

} // namespace rtm::device
