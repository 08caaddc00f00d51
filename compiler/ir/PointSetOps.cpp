//===- PointSetOps.cpp - Point set shorthands, symmetry groups and classes -===//
//
// Symmetry groups are small (at most the 48 signed permutations of three
// axes), so the group is enumerated once by closing the generators under
// composition, and orbits are plain images under every element.
//
//===----------------------------------------------------------------------===//
#include "ir/PointSetOps.h"

#include <algorithm>
#include <stdexcept>

namespace stencilc::ir {

std::vector<Offset> axesPoints(int dims, int r) {
  std::vector<Offset> points{{0, 0, 0}};
  for (int axis = 0; axis < dims; ++axis)
    for (int k = 1; k <= r; ++k)
      for (int sign : {1, -1}) {
        Offset o{0, 0, 0};
        o[size_t(axis)] = sign * k;
        points.push_back(o);
      }
  sortUnique(points);
  return points;
}

std::vector<Offset> diagonalPoints(int dims, int r) {
  std::vector<Offset> points;
  for (int a = 0; a < dims; ++a)
    for (int b = a + 1; b < dims; ++b)
      for (int k = 1; k <= r; ++k)
        for (int sa : {1, -1})
          for (int sb : {1, -1}) {
            Offset o{0, 0, 0};
            o[size_t(a)] = sa * k;
            o[size_t(b)] = sb * k;
            points.push_back(o);
          }
  sortUnique(points);
  return points;
}

std::vector<Offset> boxPoints(int dims, int r) {
  const int zRadius = dims == 3 ? r : 0;
  std::vector<Offset> points;
  // Loops nested z, y, x so the points come out already in offsetLess order.
  for (int z = -zRadius; z <= zRadius; ++z)
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x)
        points.push_back({x, y, z});
  return points;
}

void sortUnique(std::vector<Offset> &points) {
  std::sort(points.begin(), points.end(), offsetLess);
  points.erase(std::unique(points.begin(), points.end()), points.end());
}

static bool containsSorted(const std::vector<Offset> &points, const Offset &o) {
  return std::binary_search(points.begin(), points.end(), o, offsetLess);
}

Offset SymmetryGroup::apply(const Element &e, const Offset &o) {
  Offset result;
  for (size_t i = 0; i < 3; ++i)
    result[i] = e.sign[i] * o[size_t(e.perm[i])];
  return result;
}

SymmetryGroup::SymmetryGroup(int dims) : dims_(dims) {
  elements_.push_back(Element{{0, 1, 2}, {1, 1, 1}});
}

SymmetryGroup::SymmetryGroup(const Symmetry &sym, int dims) : SymmetryGroup(dims) {
  std::vector<Element> generators;
  for (const SymmetryOp &op : sym.generators) {
    // Sema rejects generators naming z in a 2D grid; dropping them here keeps
    // z = 0 and the group order honest if one slips through.
    if (op.axisA >= dims_ || (op.kind == SymmetryOp::Swap && op.axisB >= dims_))
      continue;
    Element g = elements_.front();
    if (op.kind == SymmetryOp::Reflect) {
      g.sign[size_t(op.axisA)] = -1;
    } else {
      g.perm[size_t(op.axisA)] = op.axisB;
      g.perm[size_t(op.axisB)] = op.axisA;
    }
    generators.push_back(g);
  }

  auto same = [](const Element &a, const Element &b) {
    return a.perm == b.perm && a.sign == b.sign;
  };
  // Breadth-first closure: every element times every generator until no new
  // element appears. A finite group is closed under products alone.
  for (size_t next = 0; next < elements_.size(); ++next) {
    for (const Element &g : generators) {
      const Element e = elements_[next];
      // (g . e)(o)[i] = g.sign[i] * e(o)[g.perm[i]].
      Element product;
      for (size_t i = 0; i < 3; ++i) {
        const size_t via = size_t(g.perm[i]);
        product.perm[i] = e.perm[via];
        product.sign[i] = g.sign[i] * e.sign[via];
      }
      if (std::none_of(elements_.begin(), elements_.end(),
                       [&](const Element &known) { return same(known, product); }))
        elements_.push_back(product);
    }
  }
}

std::vector<Offset> SymmetryGroup::orbit(const Offset &o) const {
  std::vector<Offset> images;
  images.reserve(elements_.size());
  for (const Element &e : elements_)
    images.push_back(apply(e, o));
  sortUnique(images);
  return images;
}

std::vector<Offset> closure(const std::vector<Offset> &points, const SymmetryGroup &group) {
  std::vector<Offset> closed;
  for (const Offset &p : points) {
    std::vector<Offset> images = group.orbit(p);
    closed.insert(closed.end(), images.begin(), images.end());
  }
  sortUnique(closed);
  return closed;
}

std::optional<Offset> firstMissingImage(const std::vector<Offset> &points,
                                        const SymmetryGroup &group) {
  for (const Offset &p : points)
    for (const Offset &image : group.orbit(p))
      if (!containsSorted(points, image))
        return p;
  return std::nullopt;
}

int orbitClasses(const std::vector<Offset> &points, const SymmetryGroup &group,
                 std::vector<int> &classOf) {
  classOf.assign(points.size(), -1);
  int numClasses = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    if (classOf[i] >= 0)
      continue;
    const int cls = numClasses++;
    for (const Offset &image : group.orbit(points[i])) {
      auto it = std::lower_bound(points.begin(), points.end(), image, offsetLess);
      if (it == points.end() || *it != image)
        throw std::invalid_argument("orbitClasses needs a point set closed under the group");
      classOf[size_t(it - points.begin())] = cls;
    }
  }
  return numClasses;
}

} // namespace stencilc::ir
