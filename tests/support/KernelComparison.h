//===- KernelComparison.h - A generated kernel against the oracle ----------===//
//
// The checks every kernel test makes, CPU or CUDA; the backends differ only in
// how a step is run.
//  - runAndCompare: random inputs, outputs poisoned with NaN before each of
//    several steps, the levels rotated in between; the outputs must match the
//    double-precision reference evaluator normwise, with no NaN in the
//    interior and nothing written into the halo (out of place).
//  - checkBoxes / checkSplitStep (rt::Box regions): on an odd grid a box's
//    points get the whole-grid step's bits and nothing else is written; boxes
//    that cover the grid (a boundary shell and its interior, as overlapped
//    halo exchange splits a step) give the whole-grid step bit for bit.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"

#include <stencilc/KernelData.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace stencilc::kerneltest {

/// Runs `step` (one kernel call on the arguments it is given) for three steps
/// on `shape` and compares every output with the reference evaluator after
/// each. `label` names the case in failure messages.
template <typename Real>
void runAndCompare(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::GridShape shape,
                   bool inPlace, const std::function<void(const rt::ErasedArgs &)> &step,
                   const std::string &label) {
  const double tolerance = std::is_same_v<Real, float> ? 1e-5 : 1e-12;
  eval::EvalSizes sizes{shape.nx, shape.ny, shape.nz, 23, -1};
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 20261122);
  // Kernel grids get the halo the oracle chose (the stencil's reach).
  for (auto &g : ref.grids)
    if (g)
      shape.halo = g->halo();
  rt::KernelData data(info, shape, sizes.tableColumns, inPlace);
  eval::copyInputs<Real>(ref, data);
  constexpr int kSteps = 3;
  for (int s = 0; s < kSteps; ++s) {
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output) {
        ref.grids[f]->poison();
        if (!inPlace)
          data.field<Real>(int(f)).poison();
      }
    eval::evaluateReference(stencil, ref.bindings());
    step(data.args());
    for (size_t f = 0; f < info.fields.size(); ++f) {
      if (ref.roles[f] != ir::FieldRole::Output)
        continue;
      const rt::Grid<double> &expect = *ref.grids[f];
      const rt::Grid<Real> &got = data.field<Real>(int(f));
      double diff2 = 0, norm2 = 0;
      long nans = 0, haloWrites = 0;
      got.forEachPointWithHalo([&](int i, int j, int k) {
        bool interior = i >= 0 && i < shape.nx && j >= 0 && j < shape.ny && k >= 0 && k < shape.nz;
        if (!interior) {
          haloWrites += !inPlace && !std::isnan(double(got(i, j, k)));
          return;
        }
        double e = expect(i, j, k), g = double(got(i, j, k));
        nans += std::isnan(g);
        diff2 += (g - e) * (g - e);
        norm2 += e * e;
      });
      std::string where = label + " " + std::to_string(shape.nx) + "x" + std::to_string(shape.ny) +
                          "x" + std::to_string(shape.nz) + " step " + std::to_string(s) +
                          " field " + info.fields[f].name + (inPlace ? " in place" : "");
      ASSERT_EQ(nans, 0) << where << ": interior points not written";
      ASSERT_EQ(haloWrites, 0) << where << ": halo points written";
      ASSERT_GT(norm2, 0) << where;
      double error = std::sqrt(diff2 / norm2);
      ASSERT_LT(error, tolerance) << where << ": normwise relative error " << error;
    }
    // The new level's halo is the boundary condition of the next step: zero
    // (Dirichlet) in both, instead of the poison that proved nothing wrote it.
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (ref.roles[f] == ir::FieldRole::Output) {
        eval::zeroHalo(*ref.grids[f], shape);
        eval::zeroHalo(data.field<Real>(int(f)), shape);
      }
    data.rotate();
    eval::rotateReference(info, ref);
    // In place, an output that overwrites a level without advancing one (what
    // `stencilc lift` makes of `p[pos] = ... p[pos] ...`, docs/LIFT.md) has
    // left its values in that level's storage, where the next step reads them.
    if (inPlace)
      for (const rt::KernelFieldInfo &out : info.fields)
        if (out.advances < 0 && out.overwrites >= 0) {
          rt::Grid<double> &level = *ref.grids[out.overwrites];
          const rt::Grid<double> &written = *ref.grids[&out - info.fields.data()];
          level.forEachPointWithHalo(
              [&](int i, int j, int k) { level(i, j, k) = written(i, j, k); });
        }
  }
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// One kernel call on `args` computing `region` (nullopt: the whole extent).
using RegionCall = std::function<void(const rt::ErasedArgs &, const std::optional<rt::Box> &)>;

template <typename Real> bool sameBits(Real a, Real b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

inline bool contains(const rt::Box &b, int i, int j, int k) {
  return i >= b.x0 && i < b.x1 && j >= b.y0 && j < b.y1 && k >= b.z0 && k < b.z1;
}

/// Odd sizes, multiples of no block, tile or vector width.
inline rt::GridShape regionShape(const rt::KernelInfo &info) {
  return info.dims == 3 ? rt::GridShape{3, 13, 11, 9, 0} : rt::GridShape{2, 17, 13, 1, 0};
}

/// Boxes of regionShape strictly inside the extent, touching its low faces, touching its
/// high faces, one column thick in x (and one plane in z) from face to face in y, and an
/// empty one.
inline std::vector<rt::Box> oddBoxes(const rt::GridShape &s) {
  if (s.dims == 2)
    return {{2, 1, 0, 15, 10, 1},
            {0, 0, 0, 7, 5, 1},
            {5, 3, 0, s.nx, s.ny, 1},
            {3, 0, 0, 4, s.ny, 1},
            {4, 2, 0, 9, 2, 1}};
  return {{2, 1, 3, 11, 8, 7},
          {0, 0, 0, 7, 5, 4},
          {5, 3, 2, s.nx, s.ny, s.nz},
          {3, 0, 4, 4, s.ny, 5},
          {4, 2, 6, 9, 2, 8}};
}

/// Boxes no kernel may take: past the high x face, before the low y face, past the high z
/// face, and upside down in z.
inline std::vector<rt::Box> boxesOutside(const rt::GridShape &s) {
  return {{0, 0, 0, s.nx + 1, s.ny, s.nz},
          {0, -1, 0, s.nx, s.ny, s.nz},
          {0, 0, 0, s.nx, s.ny, s.nz + 1},
          {0, 0, s.nz, s.nx, s.ny, s.nz - 1}};
}

/// The extent as a boundary shell `w` points thick (two slabs per dimension split, z first)
/// and its interior: the boxes overlapped halo exchange computes, the shell first.
inline std::vector<std::optional<rt::Box>> shellAndInterior(const rt::GridShape &s, int w) {
  const int nx = s.nx, ny = s.ny, nz = s.nz;
  // 2D grids have no z slabs: the shell is in x and y only.
  const int z0 = s.dims == 3 ? w : 0, z1 = s.dims == 3 ? nz - w : nz;
  std::vector<std::optional<rt::Box>> boxes;
  if (s.dims == 3) {
    boxes.push_back(rt::Box{0, 0, 0, nx, ny, w});
    boxes.push_back(rt::Box{0, 0, nz - w, nx, ny, nz});
  }
  boxes.push_back(rt::Box{0, 0, z0, nx, w, z1});
  boxes.push_back(rt::Box{0, ny - w, z0, nx, ny, z1});
  boxes.push_back(rt::Box{0, w, z0, w, ny - w, z1});
  boxes.push_back(rt::Box{nx - w, w, z0, nx, ny - w, z1});
  boxes.push_back(rt::Box{w, w, z0, nx - w, ny - w, z1}); // the interior
  return boxes;
}

/// One time step of a kernel on the reference evaluator's random inputs (halos included, so
/// that a box reads valid neighbours outside it), repeatable: each step starts from the same
/// inputs, with the outputs poisoned (out of place).
template <typename Real> class RegionStep {
public:
  RegionStep(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::GridShape shape,
             bool inPlace)
      : ref_(eval::makeRandomEvalData(stencil, {shape.nx, shape.ny, shape.nz, 23, -1}, 20261124)),
        data_(info, withHalo(shape, ref_), 23, inPlace) {}

  /// Runs the step as one call per region, in order.
  void run(const RegionCall &call, const std::vector<std::optional<rt::Box>> &regions) {
    eval::copyInputs<Real>(ref_, data_); // in place, the last step overwrote an input
    for (int f : outputs())
      if (!data_.inPlace())
        data_.field<Real>(f).poison();
    for (const std::optional<rt::Box> &region : regions)
      call(data_.args(), region);
  }

  /// The output fields' ids.
  std::vector<int> outputs() const {
    std::vector<int> ids;
    for (size_t f = 0; f < ref_.roles.size(); ++f)
      if (ref_.roles[f] == ir::FieldRole::Output)
        ids.push_back(int(f));
    return ids;
  }

  const rt::Grid<Real> &field(int f) { return data_.field<Real>(f); }

private:
  static rt::GridShape withHalo(rt::GridShape shape, const eval::EvalData &ref) {
    for (const auto &g : ref.grids)
      if (g)
        shape.halo = g->halo();
    return shape;
  }

  eval::EvalData ref_;
  rt::KernelData data_;
};

/// Each of oddBoxes on regionShape, out of place: the box's points get the bits of the
/// whole-grid call, every other point (halo included) stays poisoned.
template <typename Real>
void checkBoxes(const rt::KernelInfo &info, const ir::Stencil &stencil, const RegionCall &call,
                const std::string &label) {
  const rt::GridShape shape = regionShape(info);
  RegionStep<Real> whole(info, stencil, shape, false), part(info, stencil, shape, false);
  whole.run(call, {std::nullopt});
  for (const rt::Box &box : oddBoxes(shape)) {
    part.run(call, {box});
    for (int f : part.outputs()) {
      const rt::Grid<Real> &want = whole.field(f), &got = part.field(f);
      long wrong = 0, written = 0, unset = 0;
      got.forEachPointWithHalo([&](int i, int j, int k) {
        if (!contains(box, i, j, k)) {
          written += !std::isnan(double(got(i, j, k)));
          return;
        }
        unset += std::isnan(double(want(i, j, k)));
        wrong += !sameBits(got(i, j, k), want(i, j, k));
      });
      const std::string where =
          label + " box " + rt::boxText(box) + " field " + info.fields[f].name;
      ASSERT_EQ(unset, 0) << where << ": the whole-grid call left points unwritten";
      ASSERT_EQ(wrong, 0) << where << ": points differ from the whole-grid call";
      ASSERT_EQ(written, 0) << where << ": points outside the box written";
    }
  }
}

/// A step split into shellAndInterior(regionShape, 3) gives the whole-grid step: all of the
/// storage, halo and padding too, the same bits (NaN poison included).
template <typename Real>
void checkSplitStep(const rt::KernelInfo &info, const ir::Stencil &stencil, const RegionCall &call,
                    bool inPlace, const std::string &label) {
  const rt::GridShape shape = regionShape(info);
  const std::vector<std::optional<rt::Box>> boxes = shellAndInterior(shape, 3);
  long long covered = 0;
  for (const std::optional<rt::Box> &b : boxes)
    covered += b->points();
  ASSERT_EQ(covered, (long long)shape.nx * shape.ny * shape.nz) << "the boxes overlap";
  RegionStep<Real> whole(info, stencil, shape, inPlace), split(info, stencil, shape, inPlace);
  whole.run(call, {std::nullopt});
  split.run(call, boxes);
  for (int f : split.outputs()) {
    const rt::Grid<Real> &want = whole.field(f), &got = split.field(f);
    ASSERT_EQ(std::memcmp(got.storage(), want.storage(), sizeof(Real) * want.storageElements()), 0)
        << label << " field " << info.fields[f].name << (inPlace ? " in place" : "")
        << ": the split step differs from the whole-grid step";
  }
}

/// Two ways of making the same step (tiles cut another way, say) give all of the
/// storage, halo and padding too, the same bits, on `shape`.
template <typename Real>
void checkSameStep(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::GridShape shape,
                   const RegionCall &want, const RegionCall &got, bool inPlace,
                   const std::string &label) {
  RegionStep<Real> a(info, stencil, shape, inPlace), b(info, stencil, shape, inPlace);
  a.run(want, {std::nullopt});
  b.run(got, {std::nullopt});
  for (int f : a.outputs())
    ASSERT_EQ(std::memcmp(b.field(f).storage(), a.field(f).storage(),
                          sizeof(Real) * a.field(f).storageElements()),
              0)
        << label << " field " << info.fields[f].name << (inPlace ? " in place" : "")
        << ": the two steps differ";
}

/// Every box of boxesOutside(regionShape) is refused with a KernelError that starts with the
/// kernel's name and names the box.
inline void checkBoxesOutsideRefused(const rt::KernelInfo &info, const RegionCall &call,
                                     const std::string &label) {
  const rt::GridShape shape = regionShape(info);
  rt::KernelData data(info, {shape.dims, shape.nx, shape.ny, shape.nz, info.radius}, 4, false);
  for (const rt::Box &box : boxesOutside(shape)) {
    try {
      call(data.args(), box);
      ADD_FAILURE() << label << ": region " << rt::boxText(box) << " was accepted";
    } catch (const rt::KernelError &e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(rt::boxText(box)), std::string::npos) << message;
      EXPECT_EQ(message.rfind(info.name, 0), 0u) << message;
    }
  }
}

} // namespace stencilc::kerneltest
