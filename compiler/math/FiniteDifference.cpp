//===- FiniteDifference.cpp - Exact finite-difference weights --------------===//
//
// Fornberg's recurrence in exact rational arithmetic, the central weights
// built on it, and the expansion of derivative sugar into weighted offsets.
//
//===----------------------------------------------------------------------===//
#include "math/FiniteDifference.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace stencilc {

/// prod_{j<i-1} (x[i-1] - x[j]) / prod_{j<i} (x[i] - x[j]), the ratio c1/c2 of
/// Fornberg's recurrence. The two products grow like factorials and would
/// overflow 64 bits at high orders although their ratio stays small, so the
/// factors are applied alternately and each partial ratio is reduced.
static Rational nodeProductRatio(const std::vector<Rational> &x, size_t i) {
  Rational ratio = Rational(1) / (x[i] - x[i - 1]);
  for (size_t j = 0; j + 1 < i; ++j)
    ratio *= (x[i - 1] - x[j]) / (x[i] - x[j]);
  return ratio;
}

std::vector<Rational> fornbergWeights(int derivative, const std::vector<Rational> &nodes) {
  const size_t n = nodes.size();
  if (derivative < 0 || n == 0 || size_t(derivative) >= n)
    throw std::invalid_argument("fornbergWeights needs more nodes than the derivative order");
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (nodes[i] == nodes[j])
        throw std::invalid_argument("fornbergWeights needs distinct nodes");
  const size_t m = size_t(derivative);

  // c[j][k]: weight of node j for the k-th derivative using nodes 0..i, the
  // recurrence of Fornberg (1988) with the evaluation point at 0.
  std::vector<std::vector<Rational>> c(n, std::vector<Rational>(m + 1));
  c[0][0] = 1;
  for (size_t i = 1; i < n; ++i) {
    const size_t kMax = std::min(i, m);
    const Rational ratio = nodeProductRatio(nodes, i);
    const Rational &xi = nodes[i], &xPrev = nodes[i - 1];
    // The new node's weights come from the previous node's (before the
    // loop below updates them).
    for (size_t k = kMax; k >= 1; --k)
      c[i][k] = ratio * (Rational(int64_t(k)) * c[i - 1][k - 1] - xPrev * c[i - 1][k]);
    c[i][0] = -ratio * xPrev * c[i - 1][0];
    for (size_t j = 0; j < i; ++j) {
      const Rational gap = xi - nodes[j];
      for (size_t k = kMax; k >= 1; --k)
        c[j][k] = (xi * c[j][k] - Rational(int64_t(k)) * c[j][k - 1]) / gap;
      c[j][0] = xi * c[j][0] / gap;
    }
  }

  std::vector<Rational> weights(n);
  for (size_t j = 0; j < n; ++j)
    weights[j] = c[j][m];
  return weights;
}

std::vector<Rational> centralWeights(int derivative, int accuracyOrder) {
  if (derivative != 1 && derivative != 2)
    throw std::invalid_argument("central weights exist for derivative 1 or 2 only");
  if (accuracyOrder < 2 || accuracyOrder % 2 != 0)
    throw std::invalid_argument("accuracy order must be even and >= 2, got " +
                                std::to_string(accuracyOrder));
  const int r = accuracyOrder / 2;
  // Nodes in the order 0, 1, -1, 2, -2, ...: every prefix is (almost)
  // symmetric, which keeps Fornberg's intermediate weights small.
  std::vector<Rational> nodes{0};
  for (int k = 1; k <= r; ++k) {
    nodes.push_back(k);
    nodes.push_back(-k);
  }
  std::vector<Rational> byNode = fornbergWeights(derivative, nodes);
  std::vector<Rational> weights(size_t(2 * r + 1));
  for (size_t i = 0; i < nodes.size(); ++i)
    weights[size_t(nodes[i].num() + r)] = byNode[i];
  return weights;
}

namespace {

/// Accumulates weighted offsets, merging coincident points.
class WeightedPoints {
public:
  void add(const ir::Offset &offset, const Rational &weight) {
    auto it = std::lower_bound(
        points_.begin(), points_.end(), offset,
        [](const WeightedOffset &p, const ir::Offset &o) { return ir::offsetLess(p.offset, o); });
    if (it != points_.end() && it->offset == offset)
      it->weight += weight;
    else
      points_.insert(it, WeightedOffset{offset, weight});
  }

  /// A 1D central stencil along `axis`.
  void addAxis(int axis, const std::vector<Rational> &weights) {
    const int r = int(weights.size() / 2);
    for (int k = -r; k <= r; ++k) {
      ir::Offset o{0, 0, 0};
      o[size_t(axis)] = k;
      add(o, weights[size_t(k + r)]);
    }
  }

  /// The mixed derivative in the (a, b) plane from second differences along
  /// its two diagonals (see the header).
  void addCross(int a, int b, const std::vector<Rational> &secondWeights) {
    const int r = int(secondWeights.size() / 2);
    const Rational quarter(1, 4);
    for (int k = 1; k <= r; ++k) {
      const Rational w = quarter * secondWeights[size_t(k + r)];
      for (int sa : {1, -1})
        for (int sb : {1, -1}) {
          ir::Offset o{0, 0, 0};
          o[size_t(a)] = sa * k;
          o[size_t(b)] = sb * k;
          add(o, sa == sb ? w : -w);
        }
    }
  }

  /// The sorted points with zero weights dropped.
  std::vector<WeightedOffset> take() {
    std::erase_if(points_, [](const WeightedOffset &p) { return p.weight.isZero(); });
    return std::move(points_);
  }

private:
  std::vector<WeightedOffset> points_; ///< sorted by offsetLess
};

} // namespace

std::vector<WeightedOffset> expandDerivative(ir::DerivKind kind, int accuracyOrder, int dims) {
  using ir::DerivKind;
  if (dims != 2 && dims != 3)
    throw std::invalid_argument("derivatives need a 2D or 3D grid");
  if (derivativeMaxAxis(kind) >= dims)
    throw std::invalid_argument(std::string(ir::derivKindName(kind)) +
                                " differentiates along an axis the grid does not have");
  WeightedPoints points;
  switch (kind) {
  case DerivKind::Dx:
  case DerivKind::Dy:
  case DerivKind::Dz:
    points.addAxis(int(kind) - int(DerivKind::Dx), centralWeights(1, accuracyOrder));
    break;
  case DerivKind::Dxx:
  case DerivKind::Dyy:
  case DerivKind::Dzz:
    points.addAxis(int(kind) - int(DerivKind::Dxx), centralWeights(2, accuracyOrder));
    break;
  case DerivKind::Dxy: points.addCross(0, 1, centralWeights(2, accuracyOrder)); break;
  case DerivKind::Dxz: points.addCross(0, 2, centralWeights(2, accuracyOrder)); break;
  case DerivKind::Dyz: points.addCross(1, 2, centralWeights(2, accuracyOrder)); break;
  case DerivKind::Laplacian: {
    const std::vector<Rational> second = centralWeights(2, accuracyOrder);
    for (int axis = 0; axis < dims; ++axis)
      points.addAxis(axis, second);
    break;
  }
  }
  return points.take();
}

} // namespace stencilc
