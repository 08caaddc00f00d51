//===- CudaPropagator.h - The wave step on the device ----------------------===//
//
// The CUDA path's counterpart of wave::Propagator (docs/SEISMIC.md §The CUDA
// path), for both operators: a model's fields in device memory (CudaModel)
// and the two wavefield levels stepped by the CUDA kernels `stencilc gen
// --backend cuda` makes of examples/wave/acoustic8_sponge.stencil or
// ete37_sponge.stencil (forward) or of their adjoints (`--adjoint`), in place,
// on one stream. A step adds its stations' values to the new level on the
// device, as wave::Propagator::step does on the host.
//
// The kernels are bound by the names and roles their KernelInfo lists
// (rt::bindFields): the output, the level it advances and the level it
// overwrites, then the model's fields, so one propagator runs either
// operator; the ETE adjoint's index fields read at a neighbour
// (`vidx_at_...`) are the column grid's storage shifted, as on the CPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CudaMigration.h"
#include "DeviceKernels.h"

#include "Propagator.h"

#include "stencilc/Grid.h"
#include "stencilc/ShiftedField.h"
#include "stencilc/cuda/DeviceBuffer.h"
#include "stencilc/cuda/DeviceGrid.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace rtm {

namespace rt = stencilc::rt;
namespace cu = stencilc::cuda;

enum class CudaDirection { Forward, Adjoint };

/// One generated kernel (CudaPropagator.cu).
struct CudaKernel;

/// A velocity model's fields on the device, as its operator's kernels read
/// them: fd8's c2 = (vΔt/h)² (wave::Propagator's formula), or ETE-37's
/// per-point column `vidx` and fitted table `C` (wave::fitEteTable: the CPU
/// path's values), and the damping. The forward and the adjoint propagator
/// of the model share it.
class CudaModel {
public:
  /// Throws std::invalid_argument for grids of different shapes or a halo
  /// below the kernels' radius, std::runtime_error as wave::fitEteTable.
  CudaModel(wave::Operator op, const rt::Grid<float> &velocity, const rt::Grid<float> &damping,
            double h, double dt, const std::string &stencilDir);
  CudaModel(const CudaModel &) = delete;
  CudaModel &operator=(const CudaModel &) = delete;

  wave::Operator op() const { return op_; }
  const rt::GridShape &shape() const { return shape_; }
  /// The model's fields by their names in the .stencil file (device storage).
  std::vector<rt::NamedField> fields() const;
  /// The kernels' tables in declaration order (device storage): ETE's C.
  std::vector<rt::ErasedTable> tables() const;

private:
  wave::Operator op_;
  rt::GridShape shape_;
  cu::DeviceGrid<float> damping_;
  cu::DeviceGrid<float> c2_;             ///< fd8
  cu::DeviceGrid<std::uint16_t> column_; ///< ete37
  cu::DeviceTable<float> coefficients_;  ///< ete37
};

class CudaPropagator {
public:
  /// Steps `model` (which must outlive the propagator) forward or with the adjoint kernel.
  CudaPropagator(const CudaModel &model, CudaDirection direction, CudaVariant variant,
                 cudaStream_t stream);
  ~CudaPropagator();
  CudaPropagator(const CudaPropagator &) = delete;
  CudaPropagator &operator=(const CudaPropagator &) = delete;

  /// The wavefield at t and t−Δt.
  cu::DeviceGrid<float> &current() { return swapped_ ? levelB_ : levelA_; }
  cu::DeviceGrid<float> &previous() { return swapped_ ? levelA_ : levelB_; }
  /// The level the next step writes (in place over previous()).
  cu::DeviceGrid<float> &next() { return previous(); }

  /// One step queued on the stream: the kernel's sweep, then values[r]
  /// injected at station r of `at` into the new level (values: a device
  /// array of at.size() elements; none when null), then the levels rotate.
  void step(const device::DeviceStations &at, const float *values);
  void step(const device::DeviceStations &at, const double *values);

  /// Both levels back to zero (the halo too), as at the start.
  void reset();

  cudaStream_t stream() const { return stream_; }

private:
  /// The sweep writing previous() from current() and previous().
  void sweep();

  const CudaKernel &kernel_;
  cu::DeviceGrid<float> levelA_, levelB_;
  bool swapped_ = false; ///< current() is levelB_
  /// The kernel's arguments with current() = levelA_ ([0]) or levelB_ ([1]).
  rt::ErasedArgs args_[2];
  rt::Grid<float> zero_; ///< uploaded by reset()
  CudaVariant variant_;
  cudaStream_t stream_;
};

} // namespace rtm
