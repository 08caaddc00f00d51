//===- Stability.h - Von Neumann analysis of a leapfrog update -------------===//
//
// An explicit time step that advances a level F and overwrites the one before
// it, G, is a two-level recurrence: a Fourier mode e^{i k.x} of wavenumber
// theta (radians per point) obeys z^2 = A(theta) z + B(theta), with A and B
// the symbols of the update's F and G parts. The step is stable when both
// roots have |z| <= 1 for every theta in [-pi, pi]^d. With the per-point
// coefficients held at given values, the largest value of one of them (the
// squared Courant number c2 of an acoustic step, say) at which that holds is
// the stable limit a run must respect (docs/SEISMIC.md §Stable time step).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::analysis {

struct StableLimit {
  std::optional<double> value; ///< the largest stable value of the quantity, if found
  std::string why;             ///< why there is none (a table coefficient, no leapfrog form)
};

/// The largest value of the `in` field or scalar `quantity` for which update
/// `update` of `s` is stable, with every other `in` field and scalar at its
/// value in `values` (1 where absent). Found by bisection to a relative 1e-6,
/// on a grid of wavenumbers that includes every corner of [-pi, pi]^d.
StableLimit largestStableValue(const ir::Stencil &s, const LinearStencil &linear, int update,
                               const std::string &quantity,
                               const std::map<std::string, double> &values = {});

/// The stable limit of the quantity that sets an update's time step.
struct TimeStepLimit {
  std::string quantity;             ///< empty when none could be chosen (`limit.why` says why)
  std::vector<std::string> heldAt1; ///< the other fields and scalars the update reads, held at 1
  StableLimit limit;
};

/// The stable time step of `update` (`stencilc analyze`): the quantity is a
/// field or scalar that multiplies every neighbour read but not every term
/// (the spatial operator's scale, not the whole step's), preferring one named
/// `dt`; the others are held at 1, so for u_next = 2u - u_prev + v^2 dt^2/h^2
/// lap(u) the limit on dt is the Courant number's.
TimeStepLimit stableTimeStep(const ir::Stencil &s, const LinearStencil &linear, int update);

} // namespace stencilc::analysis
