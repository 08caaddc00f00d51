//===- TimeTilingTest.cpp - Temporal blocking against single steps ---------===//
//
// rt::runTimeTiled (stencilc/TimeTiling.h) must give T single steps bit for
// bit. For every generated kernel whose outputs advance time levels, every
// variant, depths T = 1, 2, 3 and 5, small tiles (x cut too) and the default
// ones, odd sizes that are multiples of no tile or vector width, in place and
// out of place (outputs poisoned first), with a source inside a tile and one
// on a tile's edge: six steps (for T = 5 a last, shorter pass) time-tiled
// equal six single steps, every bit of every level's storage (halo and
// padding too), and those match the double-precision reference evaluator.
// The schedule itself is checked point by point, and a wrong skew is caught.
//
//===----------------------------------------------------------------------===//
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"

#include "StencilOfKernel.h"

#include <stencilc/KernelData.h>
#include <stencilc/TimeTiling.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

using namespace stencilc;

namespace {

/// Kernels whose steps can be tiled in time.
std::vector<const rt::KernelInfo *> tileableKernels() {
  std::vector<const rt::KernelInfo *> kernels;
  for (const rt::KernelInfo *k : rt::kernelRegistry()) {
    bool outputs = false, allAdvance = true;
    for (const rt::KernelFieldInfo &f : k->fields)
      if (std::string(f.role) == "out") {
        outputs = true;
        allAdvance &= f.advances >= 0;
      }
    if (outputs && allAdvance)
      kernels.push_back(k);
  }
  return kernels;
}

/// A point source: `amplitude * (step + 1)` added to every output after each step.
struct Source {
  int i, j, k;
  double amplitude;
};

/// The field ids of the outputs.
std::vector<int> outputIds(const rt::KernelInfo &info) {
  std::vector<int> ids;
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::string(info.fields[f].role) == "out")
      ids.push_back(int(f));
  return ids;
}

template <typename Real> Real *pointer(const rt::ErasedField &f, int i, int j, int k) {
  return static_cast<Real *>(f.origin) + i + j * f.line + k * f.plane;
}

bool inside(const rt::Box &b, const Source &s) {
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

  void stepSingly(rt::KernelData &data, int steps, rt::Variant variant,
                  const std::vector<Source> &sources) {
    for (int s = 0; s < steps; ++s) {
      const rt::ErasedArgs args = data.args();
      info_.run(args, rt::RunOptions{variant, 0, 0});
      for (int o : outputIds(info_))
        for (const Source &src : sources)
          *pointer<Real>(args.fields[size_t(o)], src.i, src.j, src.k) +=
              Real(src.amplitude * (s + 1));
      data.rotate();
    }
  }

  void stepTiled(rt::KernelData &data, int steps, const rt::TimeTiling &tiling, rt::Variant variant,
                 const std::vector<Source> &sources) {
    rt::ErasedArgs args = data.args();
    rt::runTimeTiled(info_, args, steps, tiling, rt::RunOptions{variant, 0, 0},
                     [&](int step, const rt::Box &box, const rt::ErasedArgs &stepArgs) {
                       for (int o : outputIds(info_))
                         for (const Source &src : sources)
                           if (inside(box, src))
                             *pointer<Real>(stepArgs.fields[size_t(o)], src.i, src.j, src.k) +=
                                 Real(src.amplitude * (step + 1));
                     });
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

class TimeTiled : public testing::TestWithParam<const rt::KernelInfo *> {};

template <typename Real> void checkTimeTiling(const rt::KernelInfo &info) {
  const ir::Stencil stencil = kerneltest::stencilOfKernel(info);
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
    for (rt::Variant variant : {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes}) {
      const std::string label =
          fmt::format("{} {}{}", info.name, rt::variantName(variant), inPlace ? " in place" : "");
      auto single = runs.start();
      runs.stepSingly(*single, kSteps, variant, sources);
      runs.expectNear(*single, label + " single steps", tolerance);
      for (const Tiles &tiles : tilings)
        for (int depth : {1, 2, 3, 5}) {
          auto tiled = runs.start();
          runs.stepTiled(*tiled, kSteps, rt::TimeTiling{depth, tiles.x, tiles.y, tiles.z}, variant,
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

TEST_P(TimeTiled, EqualsSingleStepsBitForBit) {
  const rt::KernelInfo &info = *GetParam();
  if (std::string(info.elemType) == "float")
    checkTimeTiling<float>(info);
  else
    checkTimeTiling<double>(info);
}

INSTANTIATE_TEST_SUITE_P(Generated, TimeTiled, testing::ValuesIn(tileableKernels()),
                         [](const testing::TestParamInfo<const rt::KernelInfo *> &info) {
                           return std::string(info.param->name);
                         });

TEST(TimeTiling, CoversTheExamplesThatStepInTime) {
  std::vector<std::string> names;
  for (const rt::KernelInfo *k : tileableKernels())
    names.push_back(k->name);
  for (const char *name :
       {"acoustic_iso8_f32", "ete37_f32", "ete73_f32", "tti_f32", "lwc_elastic_f64", "heat2d_f32"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(TimeTileSchedule, IsValidForManyShapes) {
  struct Tiles {
    int x, y, z;
  };
  for (rt::Extent e : {rt::Extent{9, 17, 23}, rt::Extent{4, 1, 1}, rt::Extent{7, 40, 3}})
    for (rt::TimeSkew skew : {rt::TimeSkew{0, 0, 0}, rt::TimeSkew{1, 1, 2}, rt::TimeSkew{4, 4, 4}})
      for (int depth : {1, 2, 3, 5})
        for (Tiles t : {Tiles{0, 1, 1}, Tiles{0, 3, 4}, Tiles{5, 5, 3}, Tiles{2, 64, 64}}) {
          const rt::TimeTileSchedule schedule(e, skew, depth, t.x, t.y, t.z);
          EXPECT_EQ(rt::scheduleViolation(schedule, e, skew), "")
              << e.nx << "x" << e.ny << "x" << e.nz << " skew " << skew.x << "," << skew.y << ","
              << skew.z << " T = " << depth << " tiles " << t.x << " x " << t.y << " x " << t.z;
        }
}

TEST(TimeTileSchedule, TooSmallASkewIsCaught) {
  const rt::Extent e{8, 30, 20};
  const rt::TimeTileSchedule schedule(e, rt::TimeSkew{0, 1, 1}, 3, 0, 5, 4);
  const std::string why = rt::scheduleViolation(schedule, e, rt::TimeSkew{0, 2, 2});
  EXPECT_NE(why.find("reads"), std::string::npos) << why;
}

/// What cannot be tiled in time is refused, naming the kernel and the value.
TEST(TimeTiling, RefusesWhatItCannotRun) {
  const rt::KernelInfo *info = rt::findKernel("acoustic_iso8_f32");
  ASSERT_NE(info, nullptr);
  rt::KernelData data(*info, rt::GridShape{3, 9, 8, 7, 4}, 1, /*inPlace=*/true);
  rt::ErasedArgs args = data.args();
  auto message = [&](int steps, rt::TimeTiling tiling, rt::RunOptions options) {
    try {
      rt::runTimeTiled(*info, args, steps, tiling, options);
    } catch (const rt::KernelError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(3, {0, 0, 0, 0}, {}).rfind("acoustic_iso8_f32: time tiling of depth 0", 0), 0u);
  EXPECT_EQ(message(-1, {2, 0, 0, 0}, {}).rfind("acoustic_iso8_f32: -1 time steps", 0), 0u);
  rt::RunOptions withRegion;
  withRegion.region = rt::Box{0, 0, 0, 2, 2, 2};
  EXPECT_NE(message(3, {2, 0, 0, 0}, withRegion).find("takes no region"), std::string::npos);
  // A kernel whose output advances nothing.
  rt::KernelInfo noTime = *info;
  noTime.fields[2].advances = -1;
  rt::ErasedArgs same = args;
  try {
    rt::runTimeTiled(noTime, same, 2, {2, 0, 0, 0}, {});
    ADD_FAILURE() << "an output that advances nothing was accepted";
  } catch (const rt::KernelError &e) {
    EXPECT_NE(std::string(e.what()).find("'u_next' advances no time level"), std::string::npos)
        << e.what();
  }
}

} // namespace
