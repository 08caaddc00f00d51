//===- Propagator.h - One time step of the acoustic wave equation ----------===//
//
// The example's two operators behind one interface: the ETE 37-point step
// with a fitted coefficient table (ete37_sponge.stencil) and the 8th-order
// finite-difference step (acoustic8_sponge.stencil). Each owns its two
// wavefield grids (the generated kernels run in place: the new level is
// written over the oldest) and the per-point fields its kernel reads, built
// from a velocity model, a damping (sponge) field, the grid spacing and Δt.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "seismic/EteFit.h"

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"

#include <memory>
#include <string>
#include <vector>

namespace wave {

namespace rt = stencilc::rt;

enum class Operator { Ete37, Fd8 };
const char *operatorName(Operator op);

/// A value added to the new wavefield at one grid point after a sweep.
struct Injection {
  int i = 0, j = 0, k = 0;
  double value = 0;
};

/// What the ETE table fit reported, for the run's log.
struct TableReport {
  std::vector<double> velocities; ///< one table column each
  stencilc::seismic::EteFit fit;
};

class Propagator {
public:
  /// Fields of the model's shape (its halo must be at least the stencils'
  /// radius, 4); `stencilDir` is where ete37_sponge.stencil is found (its
  /// point set and classes are the table's rows). Throws std::runtime_error
  /// on a model the operator cannot run (e.g. an unstable ETE fit).
  static std::unique_ptr<Propagator> create(Operator op, const rt::Grid<float> &velocity,
                                            const rt::Grid<float> &damping, double h, double dt,
                                            const std::string &stencilDir);
  virtual ~Propagator() = default;

  /// The wavefield at t and t−Δt: both zero at the start.
  rt::Grid<float> &current() { return *current_; }
  rt::Grid<float> &previous() { return *previous_; }

  /// One step: the kernel's sweep, then the injections added to the new
  /// level, then the levels rotate (current() is the new level).
  void step(const std::vector<Injection> &injections, const rt::RunOptions &options = {});

  /// Set only for the ETE operator.
  const TableReport *tableReport() const { return table_ ? table_.get() : nullptr; }

protected:
  Propagator(const rt::GridShape &shape);
  /// Writes the new level into `next` from current() and previous().
  virtual void sweep(rt::Grid<float> &next, const rt::RunOptions &options) = 0;

  rt::Grid<float> levelA_, levelB_;
  rt::Grid<float> *current_, *previous_;
  std::unique_ptr<TableReport> table_;
};

} // namespace wave
