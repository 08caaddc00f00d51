//===- FiniteDifference.h - Exact finite-difference weights ----------------===//
//
// Derivative sugar (`dxx(u, 8)`, `dxy(u)`, `laplacian(u)`) expands into
// weighted points whose weights are computed exactly with Fornberg's
// algorithm in rational arithmetic, for unit grid spacing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "support/Rational.h"

#include <vector>

namespace stencilc {

/// Fornberg (1988): weights w_i such that sum_i w_i f(nodes[i]) approximates
/// the `derivative`-th derivative of f at 0, exact for polynomials of degree
/// < nodes.size(). Throws std::overflow_error if the rationals overflow.
std::vector<Rational> fornbergWeights(int derivative, const std::vector<Rational> &nodes);

/// Central weights on nodes -r..r (r = accuracyOrder/2) for derivative 1 or 2;
/// result[k + r] is the weight of node k. accuracyOrder must be even and >= 2.
std::vector<Rational> centralWeights(int derivative, int accuracyOrder);

struct WeightedOffset {
  ir::Offset offset;
  Rational weight;
};

/// The weighted points of a derivative of the given even accuracy order in a
/// `dims`-dimensional grid, for unit spacing, sorted by offset, zero weights
/// dropped and coincident points merged (so `laplacian` has one centre point).
/// Cross derivatives use the coordinate-plane diagonals:
///   d2u/dxdy = 1/4 * sum_k w2_k [u(k,k) + u(-k,-k) - u(k,-k) - u(-k,k)],
/// w2 being the central second-derivative weights of that order.
std::vector<WeightedOffset> expandDerivative(ir::DerivKind kind, int accuracyOrder, int dims);

} // namespace stencilc
