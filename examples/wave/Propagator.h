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

#include "stencilc/CoefficientTable.h"
#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"
#include "stencilc/timeloop/TimeTiling.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace wave {

namespace rt = stencilc::rt;

enum class Operator { Ete37, Fd8 };
const char *operatorName(Operator op);

/// Which way a propagator steps: the forward wave equation, or its adjoint,
/// the kernel `stencilc gen --adjoint` derives from the same .stencil file
/// (docs/DSL.md "Adjoint"), run backwards in time by the caller.
enum class Direction { Forward, Adjoint };

/// A value added to the new wavefield at one grid point after a sweep (the
/// grid's own coordinates: with several ranks, every copy of the point a rank
/// holds, its own or a halo copy of a neighbour's).
struct Injection {
  int i = 0, j = 0, k = 0;
  double value = 0;
};

/// What the ETE table fit reported, for the run's log.
struct TableReport {
  std::vector<double> velocities; ///< one table column each
  stencilc::seismic::EteFit fit;
};

/// The velocities of the whole model, from those of this process's part (the
/// identity in one process): the ETE table has one column per velocity, the
/// same on every rank.
using UniteVelocities = std::function<std::set<float>(const std::set<float> &)>;

/// Runs one step of a kernel: the whole grid at once, or distributed with
/// halo exchange (Distribution::step).
using Stepper =
    std::function<void(const rt::KernelInfo &, const rt::ErasedArgs &, const rt::RunOptions &)>;

/// What the ETE operator's kernels read besides the wavefields: each point's
/// table column (`vidx`, halo included) and the fitted table (`C`), with the
/// fit's report. The CPU propagator binds them; the CUDA path
/// (examples/rtm/CudaPropagator.h) uploads the same values, so both run the
/// same arithmetic.
struct EteTable {
  TableReport report;
  rt::Grid<uint16_t> column;
  rt::CoefficientTable<float> coefficients;
};

/// The table of `velocity`'s distinct velocities (evenly spaced columns
/// beyond 1024) fitted for spacing `h` and step `dt`, its rows the point
/// classes of ete37_sponge.stencil in `stencilDir`. Throws std::runtime_error
/// on an unstable fit (unless `allowUnstable`) or an unreadable stencil file.
EteTable fitEteTable(const rt::Grid<float> &velocity, double h, double dt,
                     const std::string &stencilDir, const UniteVelocities &unite = {},
                     bool allowUnstable = false);

/// The generated kernel an operator runs, for sizing a distribution's halo.
const rt::KernelInfo &kernelOf(Operator op, Direction direction = Direction::Forward);

/// The largest stable Courant number v_max dt / h of the fd8 operator's
/// leapfrog step: the von Neumann limit of acoustic8_sponge.stencil (found in
/// `stencilDir`) on c2 = (v dt / h)^2 with no damping (analysis/Stability.h).
double fdCourantLimit(const std::string &stencilDir);

class Propagator {
public:
  /// Fields of the model's shape (its halo must be at least the stencils'
  /// radius, 4); `stencilDir` is where ete37_sponge.stencil is found (its
  /// point set and classes are the table's rows). Throws std::runtime_error
  /// on a model the operator cannot run (e.g. an unstable ETE fit, unless
  /// `allowUnstable`). An adjoint propagator's step is the transpose of the
  /// forward one on the same model: stepping it from the adjoint sources
  /// backwards in time (the caller counts time down) gives Fᵀ.
  static std::unique_ptr<Propagator>
  create(Operator op, const rt::Grid<float> &velocity, const rt::Grid<float> &damping, double h,
         double dt, const std::string &stencilDir, const UniteVelocities &unite = {},
         bool allowUnstable = false, Direction direction = Direction::Forward);
  virtual ~Propagator() = default;

  /// The wavefield at t and t−Δt: both zero at the start.
  rt::Grid<float> &current() { return *current_; }
  rt::Grid<float> &previous() { return *previous_; }

  /// One step: the kernel's sweep (through `stepper`, the whole grid by
  /// default), then the injections added to the new level, then the levels
  /// rotate (current() is the new level).
  void step(const std::vector<Injection> &injections, const rt::RunOptions &options = {},
            const Stepper &stepper = {});

  /// Called after each box of each step of a time-tiled run, possibly from
  /// several threads at once for disjoint boxes: `next` is step `step`'s new
  /// level, final on `box` (its injections added).
  using OnBox =
      std::function<void(int step, const rt::Box &box, const rt::FieldView<const float> &next)>;

  /// Runs `count` steps of the kernel on `args`, rotating them, and calls
  /// `afterBox` after each box of each step (Distribution::runSteps: T steps
  /// per halo exchange over several processes).
  using StepRunner =
      std::function<void(rt::ErasedArgs &args, int count, const rt::AfterBox &afterBox)>;

  /// `count` steps in passes of `tiling.depth` steps (temporal blocking,
  /// stencilc/timeloop/TimeTiling.h), bit for bit what `count` calls of step() give
  /// with injectionsAt(s) added after step s. Without `runner` (one process)
  /// every injection must lie in the grid's interior; with it, in the grid or
  /// its halo, where a runner's boxes may reach. Throws
  /// std::invalid_argument naming the point otherwise.
  void stepTimeTiled(int count, const rt::TimeTiling &tiling,
                     const std::function<std::vector<Injection>(int step)> &injectionsAt,
                     const OnBox &onBox, const rt::RunOptions &options = {},
                     const StepRunner &runner = {});

  /// Both levels back to zero (the halo too), as at the start.
  void reset();

  /// Set only for the ETE operator.
  const TableReport *tableReport() const { return table_ ? table_.get() : nullptr; }

protected:
  Propagator(const rt::GridShape &shape, Direction direction);
  /// The kernel's arguments for writing the new level into `next` from
  /// current() and previous() (in place: `next` is previous()'s storage).
  virtual rt::ErasedArgs args(rt::Grid<float> &next) = 0;
  virtual const rt::KernelInfo &kernel() const = 0;

  rt::Grid<float> levelA_, levelB_;
  rt::Grid<float> *current_, *previous_;
  Direction direction_;
  std::unique_ptr<TableReport> table_;
};

} // namespace wave
