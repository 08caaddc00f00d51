//===- TimeTilingCheck.h - Temporal blocking against single steps ---------===//
//
// rt::runTimeTiledBoxes (stencilc/timeloop/TimeTiling.h) must give T single steps bit
// for bit, whatever runs each box: the generated CPU kernels
// (tests/kernels/TimeTilingTest.cpp) or the CUDA kernels through the emulator
// (tests/cuda/CudaTimeTilingTest.cpp). For one kernel and each of its
// launchers (variants): depths T = 1, 2, 3 and 5, small tiles (x cut too) and
// the default ones, odd sizes that are multiples of no tile or vector width,
// in place and out of place (outputs poisoned first), with a source inside a
// tile and one on a tile's edge: six steps (for T = 5 a last, shorter pass)
// time-tiled equal six single steps, every bit of every level's storage (halo
// and padding too), and those match the double-precision reference evaluator.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"

#include "KernelComparison.h"

#include <stencilc/KernelData.h>
#include <stencilc/timeloop/TimeTiling.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::kerneltest {

/// One way to run a kernel on a box: a CPU variant, or a CUDA launch.
struct BoxLauncher {
  std::string label;
  RegionCall call;
  rt::TileConcurrency concurrency = rt::TileConcurrency::Threads;
};

/// The kernels of `kernels` whose steps can be tiled in time (rt::isTimeTileable).
inline std::vector<const rt::KernelInfo *>
tileableKernels(const std::vector<const rt::KernelInfo *> &kernels = rt::kernelRegistry()) {
  std::vector<const rt::KernelInfo *> tileable;
  std::copy_if(kernels.begin(), kernels.end(), std::back_inserter(tileable),
               [](const rt::KernelInfo *k) { return rt::isTimeTileable(*k); });
  return tileable;
}

/// A point source: `amplitude * (step + 1)` added to every output after each step.
struct Source {
  int i, j, k;
  double amplitude;
};

/// The field ids of the outputs.
inline std::vector<int> outputIds(const rt::KernelInfo &info) {
  std::vector<int> ids;
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::string(info.fields[f].role) == "out")
      ids.push_back(int(f));
  return ids;
}

template <typename Real> Real *pointer(const rt::ErasedField &f, int i, int j, int k) {
  return static_cast<Real *>(f.origin) + i + j * f.line + k * f.plane;
}

inline bool inside(const rt::Box &b, const Source &s) {
  return s.i >= b.x0 && s.i < b.x1 && s.j >= b.y0 && s.j < b.y1 && s.k >= b.z0 && s.k < b.z1;
}

/// Runs of one kernel from the same random inputs: single steps, time-tiled
/// passes, and the reference evaluator's steps.
template <typename Real> class Runs {
public:
  Runs(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::GridShape shape, bool inPlace)
      : info_(info), stencil_(stencil), shape_(shape), inPlace_(inPlace),
        initial_(eval::makeRandomEvalData(stencil, {shape.nx, shape.ny, shape.nz, 23, -1}, 1124)),
        ref_(eval::makeRandomEvalData(stencil, {shape.nx, shape.ny, shape.nz, 23, -1}, 1124)) {
    for (const auto &g : initial_.grids)
      if (g)
        shape_.halo = g->halo();
    // Every level's halo, the boundary, is zero (Dirichlet) in every run: the
    // levels rotate through storages whose halos would otherwise differ
    // between the kernels (in place) and the reference.
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (isLevel(int(f)))
        eval::zeroHalo(*ref_.grids[f], shape_);
  }

  /// The kernel's grids, holding the inputs.
  std::unique_ptr<rt::KernelData> start() {
    auto d = std::make_unique<rt::KernelData>(info_, shape_, 23, inPlace_);
    eval::copyInputs<Real>(initial_, *d);
    // Out of place, the outputs are poisoned, so that a point no box writes
    // shows.
    for (int o : outputIds(info_))
      if (!inPlace_)
        d->field<Real>(o).poison();
    for (size_t f = 0; f < info_.fields.size(); ++f)
      if (isLevel(int(f)))
        eval::zeroHalo(d->field<Real>(int(f)), shape_);
    return d;
  }

  void stepSingly(rt::KernelData &data, int steps, const BoxLauncher &launcher,
                  const std::vector<Source> &sources) {
    for (int s = 0; s < steps; ++s) {
      const rt::ErasedArgs args = data.args();
      launcher.call(args, std::nullopt);
      for (int o : outputIds(info_))
        for (const Source &src : sources)
          *pointer<Real>(args.fields[size_t(o)], src.i, src.j, src.k) +=
              Real(src.amplitude * (s + 1));
      data.rotate();
    }
  }

  void stepTiled(rt::KernelData &data, int steps, const rt::TimeTiling &tiling,
                 const BoxLauncher &launcher, const std::vector<Source> &sources) {
    rt::ErasedArgs args = data.args();
    rt::runTimeTiledBoxes(
        info_, args, steps, tiling,
        [&](const rt::ErasedArgs &levelArgs, const rt::Box &box) { launcher.call(levelArgs, box); },
        [&](int step, const rt::Box &box, const rt::ErasedArgs &stepArgs) {
          for (int o : outputIds(info_))
            for (const Source &src : sources)
              if (inside(box, src))
                *pointer<Real>(stepArgs.fields[size_t(o)], src.i, src.j, src.k) +=
                    Real(src.amplitude * (step + 1));
        },
        launcher.concurrency);
    for (int s = 0; s < steps; ++s)
      data.rotate(); // KernelData's names follow the levels runTimeTiled rotated
    for (size_t f = 0; f < info_.fields.size(); ++f)
      EXPECT_EQ(args.fields[f].origin, data.args().fields[f].origin)
          << "field " << info_.fields[f].name << " names another level after the run";
  }

  void stepReference(int steps, const std::vector<Source> &sources) {
    for (int s = 0; s < steps; ++s) {
      eval::evaluateReference(stencil_, ref_.bindings());
      for (int o : outputIds(info_))
        for (const Source &src : sources)
          (*ref_.grids[size_t(o)])(src.i, src.j, src.k) += src.amplitude * (s + 1);
      eval::rotateReference(info_, ref_);
    }
  }

  /// Every time level's interior within `tolerance` of the reference's, normwise.
  void expectNear(rt::KernelData &data, const std::string &label, double tolerance) {
    for (size_t f = 0; f < info_.fields.size(); ++f) {
      if (std::string(info_.fields[f].role) != "time")
        continue;
      const rt::Grid<Real> &got = data.field<Real>(int(f));
      const rt::Grid<double> &expect = *ref_.grids[f];
      double diff2 = 0, norm2 = 0;
      got.forEachInteriorPoint([&](int i, int j, int k) {
        const double e = expect(i, j, k), g = double(got(i, j, k));
        diff2 += (g - e) * (g - e);
        norm2 += e * e;
      });
      ASSERT_GT(norm2, 0) << label;
      EXPECT_LT(std::sqrt(diff2 / norm2), tolerance)
          << label << ": field " << info_.fields[f].name << " against the reference evaluator";
    }
  }

  /// Every time level of both, storage and all (halo, padding, poison), the same bits.
  void expectSameBits(rt::KernelData &expect, rt::KernelData &got, const std::string &label) {
    for (size_t f = 0; f < info_.fields.size(); ++f) {
      if (std::string(info_.fields[f].role) != "time")
        continue;
      const rt::Grid<Real> &a = expect.field<Real>(int(f)), &b = got.field<Real>(int(f));
      ASSERT_EQ(a.storageElements(), b.storageElements());
      size_t first = 0;
      while (first < a.storageElements() &&
             std::memcmp(a.storage() + first, b.storage() + first, sizeof(Real)) == 0)
        ++first;
      EXPECT_EQ(first, a.storageElements())
          << label << ": field " << info_.fields[f].name
          << " differs from single steps (first at storage index " << first << ")";
    }
  }

private:
  bool isLevel(int f) const {
    const std::string role = info_.fields[size_t(f)].role;
    return role == "time" || role == "out";
  }

  const rt::KernelInfo &info_;
  const ir::Stencil &stencil_;
  rt::GridShape shape_;
  bool inPlace_;
  eval::EvalData initial_, ref_;
};

/// Checks `runTimeTiledBoxes` over each of `launchers` (the kernel's variants)
/// against single steps of the same launcher, bit for bit, and those against
/// the reference evaluator (see the file comment).
template <typename Real>
void checkTimeTiling(const rt::KernelInfo &info, const ir::Stencil &stencil,
                     const std::vector<BoxLauncher> &launchers) {
  const rt::GridShape shape =
      info.dims == 3 ? rt::GridShape{3, 13, 23, 19, 0} : rt::GridShape{2, 37, 29, 1, 0};
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  const double tolerance = std::is_same_v<Real, float> ? 1e-4 : 1e-11;
  // Small tiles (many tiles, each level's boxes shifted across them), x cut
  // too, and the defaults (whole rows, one or two tiles in z); level 0's
  // tiles begin at x = 6 (tiled), y = 20 (5 and 4 rows) and z = 9 (3 planes):
  // one source sits there, on the edge, the other inside a tile.
  struct Tiles {
    int x, y, z;
  };
  const std::vector<Tiles> tilings = {{0, 5, 3}, {6, 4, 3}, {0, 0, 0}};
  const std::vector<Source> sources = info.dims == 3
                                          ? std::vector<Source>{{6, 20, 9, -0.25}, {3, 7, 4, 0.5}}
                                          : std::vector<Source>{{6, 20, 0, -0.25}, {3, 7, 0, 0.5}};
  // Six steps: a last, shorter pass for depth 5.
  constexpr int kSteps = 6;
  for (bool inPlace : {true, false}) {
    if (inPlace && !canRunInPlace)
      continue;
    Runs<Real> runs(info, stencil, shape, inPlace);
    runs.stepReference(kSteps, sources);
    for (const BoxLauncher &launcher : launchers) {
      const std::string label =
          fmt::format("{} {}{}", info.name, launcher.label, inPlace ? " in place" : "");
      auto single = runs.start();
      runs.stepSingly(*single, kSteps, launcher, sources);
      runs.expectNear(*single, label + " single steps", tolerance);
      for (const Tiles &tiles : tilings)
        for (int depth : {1, 2, 3, 5}) {
          auto tiled = runs.start();
          runs.stepTiled(*tiled, kSteps, rt::TimeTiling{depth, tiles.x, tiles.y, tiles.z}, launcher,
                         sources);
          runs.expectSameBits(
              *single, *tiled,
              fmt::format("{} T = {} tiles {} x {} x {}", label, depth, tiles.x, tiles.y, tiles.z));
          if (::testing::Test::HasFailure())
            return;
        }
    }
  }
}

} // namespace stencilc::kerneltest
