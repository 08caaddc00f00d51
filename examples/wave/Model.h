//===- Model.h - Velocity models, the sponge layer and the source wavelet --===//
//
// The physics inputs of the example, independent of the operator: a layered
// velocity model with a high-velocity body (or a homogeneous one for checks),
// the damping factors of the absorbing sponge, and the Ricker wavelet.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"

namespace wave {

namespace rt = stencilc::rt;

/// Every field of the example has this halo, the stencils' radius, except
/// over several ranks with T steps per halo exchange: T times it.
inline constexpr int kHalo = 4;

/// Four flat layers, 1500 to 3200 m/s downwards, with an ellipsoidal
/// 4500 m/s body (a salt-like inclusion) in the middle of the lower half, on
/// an nx x ny x nz grid: all of it, or the part `part` of it (global
/// coordinates) with a halo `halo` deep.
rt::Grid<float> layeredModel(int nx, int ny, int nz);
rt::Grid<float> layeredModel(int nx, int ny, int nz, const rt::Box &part, int halo = kHalo);

/// The same velocity everywhere.
rt::Grid<float> homogeneousModel(int nx, int ny, int nz, float velocity);
rt::Grid<float> homogeneousModel(const rt::Box &part, float velocity, int halo = kHalo);

/// Per-point damping factors: 1 inside, exp(−(α (w − d) / w)²) at distance d
/// < w points from a face (Cerjan et al. 1985, docs/DESIGN.md [10]), applied once per step. The
/// halo keeps the edge value. `shape` is the whole grid's; with `part`, the
/// factors of that part (global coordinates) and its halo only.
rt::Grid<float> spongeDamping(const rt::GridShape &shape, int width, double alpha = 0.3);
rt::Grid<float> spongeDamping(const rt::GridShape &shape, const rt::Box &part, int width,
                              double alpha = 0.3);

/// Sponge widths per face, in points: the x faces, the y faces, the top
/// (z = 0) and the bottom. A point's α (w − d) / w is the largest over the
/// faces it is within w of; equal widths give the factors above.
struct SpongeWidths {
  int x = 0, y = 0, top = 0, bottom = 0;
};
rt::Grid<float> spongeDamping(const rt::GridShape &shape, const SpongeWidths &widths,
                              double alpha = 0.3);

/// The Ricker wavelet of peak frequency f (Hz), delayed by t0 (s).
double ricker(double t, double f, double t0);

} // namespace wave
