//===- OrderSweep.h - Intensity, roofline and cost of a stencil per order ---===//
//
// `stencilc analyze --orders` (docs/PERFORMANCE-MODEL.md §Order sweep), after
// Louboutin et al., "Performance prediction of finite-difference solvers for
// different computer architectures" (docs/DESIGN.md [5]): the same
// equation re-derived at each accuracy order (frontend/OrderOverride.h) has
// its compulsory flops and bytes per point (analysis/StencilCounts.h), their
// ratio, and on a machine the roofline bound min(bandwidth / bytes,
// peak / flops). It is compute-bound when flops / bytes reaches the ridge
// peak / bandwidth.
//
// A higher order also costs fewer grid points for the same accuracy. For a
// wave of wavelength L and period T (= L / v) sampled at p points per
// wavelength, h = L / p, a cell of L^d holds p^d points, and the stable step
// dt = C h / v (C the Courant number, analysis/Stability.h, at v = h = 1)
// takes p / C steps per period: simulating one L^d for one T costs
// p^d * p / C point updates, each at the bound's time per point.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "analysis/StencilCounts.h"
#include "passes/Pipeline.h"

#include <optional>
#include <string>

namespace stencilc::analysis {

/// Grid points per wavelength at accuracy order `order` (even, >= 2): the
/// rule of the paper's Table 2, p = 6 at order 2 and 2 at order 24, linear in
/// between and rounded to the nearest integer (the table's 6, 5, 4, 3, 2 at
/// orders 2, 6, 12, 18, 24); 2, the Nyquist limit, beyond order 24.
int pointsPerWavelength(int order);

/// The ridge of the roofline: the flops per byte at which `machine` turns
/// compute-bound for `type`.
double ridgeIntensity(const Machine &machine, ir::ElemType type);

struct OrderBound {
  double gptsPerSecond = 0; ///< min(memoryGpts, computeGpts)
  double memoryGpts = 0;    ///< bandwidth / compulsory bytes per point
  double computeGpts = 0;   ///< peak / flops per point
  double gflops = 0;        ///< the flop rate at the bound
  std::string limit;        ///< "memory" or "compute"
};

/// The wave-propagation cost at one order, per cell of one wavelength in
/// every dimension and per wave period.
struct OrderCost {
  int pointsPerWavelength = 0;
  std::optional<double> courant; ///< the stable dt at v = h = 1; absent: see `why`
  std::string why;               ///< why there is no Courant number (not a wave step)
  double pointsPerCell = 0;      ///< p^d
  double stepsPerPeriod = 0;     ///< p / C
  double updatesPerCellPeriod = 0;
  double flopsPerCellPeriod = 0;
  std::optional<double> secondsPerCellPeriod; ///< at the bound, with a machine
};

struct OrderRow {
  int order = 0;
  StencilCounts counts;
  std::optional<OrderBound> bound;
  OrderCost cost;
};

/// Why `c` is not a wave step whose cost per wavelength and period can be
/// counted, or nullopt when it is: every update that advances a time level
/// has a stable limit on `dt`, with a spacing `h` among the inputs held at 1,
/// and the limit doubles when h doubles (the CFL form dt <= C h / v; a
/// diffusion step's dt <= h^2 / (4 alpha) quadruples). The form of the
/// equation does not change with its order, so this is asked once.
std::optional<std::string> notAWaveStep(const CompiledStencil &c);

/// The Courant number of a wave step: the least stable `dt` over the updates
/// that advance a time level, every other input at 1; none, and why, when an
/// update has no stable limit.
std::optional<double> courantNumber(const CompiledStencil &c, std::string &why);

/// The row of `c`, compiled at accuracy order `order`; `machine` may be null;
/// `notWave` is notAWaveStep's answer for the stencil (no cost when set).
OrderRow orderRow(const CompiledStencil &c, int order, const Machine *machine,
                  const std::optional<std::string> &notWave);

} // namespace stencilc::analysis
