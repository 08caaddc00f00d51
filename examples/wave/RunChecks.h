//===- RunChecks.h - What a wave run is refused for before it computes ------===//
//
// A run that cannot work, or cannot give a meaningful answer, is refused before
// any file is written, with the numbers that decide it:
//
// - memory: the grids one process holds (gridBytes) against the memory its
//   machine has available, shared by the processes on that machine;
// - the sponge: wider than a third of an axis, it damps most of the model;
// - the model: a velocity that is not a finite positive number, at its first
//   point;
// - the source: a wavelet whose band reaches wavelengths shorter than the
//   operator resolves at the slowest velocity (minPointsPerWavelength).
//
// Every check throws std::invalid_argument with the message wave prints.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Propagator.h"

#include "stencilc/Grid.h"

#include <cstdint>

namespace wave {

/// Bytes of the grids one process holds during a run on a box of `shape`
/// (its halo included, rows padded as rt::Grid pads them): the velocity and
/// the sponge, the two wavefield levels, and the operator's own per-point
/// coefficients (fd8: (v dt / h)^2 and the sponge; ete37: the sponge and a
/// uint16 table column).
std::uint64_t gridBytes(const stencilc::rt::GridShape &shape, Operator op);

/// Refuses a run whose processes on this machine (`processesHere` of them,
/// each holding up to `bytesPerProcess`) need more than `available` bytes;
/// `available` 0 (unknown) passes.
void checkMemory(std::uint64_t bytesPerProcess, int processesHere, std::uint64_t available);

/// The sponge width: `requested` when given (refused when wider than a third
/// of an axis: the sponge would damp most of the model), else 20 points or a
/// third of the shortest axis, whichever is less.
int spongeWidth(int requested, bool given, int nx, int ny, int nz);

/// The highest frequency of a Ricker wavelet of peak `peak` that the run must
/// propagate: 2.5 peak, where its amplitude spectrum is 3 % of its peak.
inline constexpr double kRickerBandFactor = 2.5;

/// The fewest grid points per wavelength the operator propagates faithfully:
/// fd8, 3 (its phase velocity is 2 % slow there); ete37, the ETE fit's band
/// of 0.6 of the Nyquist wavenumber (1 / 0.3 points).
double minPointsPerWavelength(Operator op);

/// Refuses a wavelet of peak frequency `peak` Hz whose band (kRickerBandFactor
/// peak) has, at the slowest velocity `vmin`, fewer points per wavelength on
/// a grid of spacing `h` than the operator needs; the message gives the
/// highest peak frequency the grid takes.
void checkFrequency(double peak, double vmin, double h, Operator op);

} // namespace wave
