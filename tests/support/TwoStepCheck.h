//===- TwoStepCheck.h - Two steps per CUDA launch against single steps ----===//
//
// The CUDA twostep kernel (3.5D blocking: the first step of a launch on each
// block's widened columns into rings of shared planes, the second from them)
// must give what two single launches give, bit for bit. For one kernel: odd
// sizes, launch geometries that leave partial blocks in x, y and z, the whole
// extent in one launch and split into boxes along y and along z, a source
// inside the grid and one on a box edge (added inside the launch after its
// first step, by the caller after its second), every output of either step
// poisoned first: six steps as three launches equal six single `ro` launches
// (which match the reference evaluator) in every interior bit of every level.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "TimeTilingCheck.h"

#include <stencilc/Grid.h>

#include <gtest/gtest.h>

#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::kerneltest {

/// A value added to an output's first-step level inside a two-step launch.
struct StepAdd {
  int field, x, y, z;
  double value;
};

/// Two steps on `args`, the second step's outputs in `second` (field order).
using TwoStepCall =
    std::function<void(const rt::ErasedArgs &args, const std::vector<rt::ErasedField> &second,
                       const std::optional<rt::Box> &region, const std::vector<StepAdd> &adds)>;

/// What rotateTwoSteps does, on erased fields: each time field takes the
/// second step's level, the one it overwrites the first step's, and the
/// outputs the storages nothing reads any more.
inline void rotateTwoSteps(const rt::KernelInfo &info, rt::ErasedArgs &args,
                           std::vector<rt::ErasedField> &second) {
  size_t k = 0;
  for (int o : outputIds(info)) {
    const rt::KernelFieldInfo &out = info.fields[size_t(o)];
    rt::ErasedField &O = args.fields[size_t(o)], &F = args.fields[size_t(out.advances)];
    rt::ErasedField &S = second[k++];
    if (out.overwrites < 0) {
      const rt::ErasedField freed = F;
      F = S;
      S = O;
      O = freed;
      continue;
    }
    rt::ErasedField &G = args.fields[size_t(out.overwrites)];
    const rt::ErasedField oldest = G, older = F;
    G = O;
    F = S;
    O = oldest;
    S = older;
  }
}

template <typename Real>
void checkTwoSteps(const rt::KernelInfo &info, const ir::Stencil &stencil,
                   const BoxLauncher &singleStep, const TwoStepCall &twoSteps) {
  const bool is3d = info.dims == 3;
  const rt::GridShape shape =
      is3d ? rt::GridShape{3, 13, 23, 19, 0} : rt::GridShape{2, 37, 29, 1, 0};
  const double tolerance = std::is_same_v<Real, float> ? 1e-4 : 1e-11;
  // One source on the edge of the boxes below (y = 10, z = 9), one inside.
  const std::vector<Source> sources = is3d ? std::vector<Source>{{6, 10, 9, -0.25}, {3, 7, 4, 0.5}}
                                           : std::vector<Source>{{6, 10, 0, -0.25}, {3, 7, 0, 0.5}};
  constexpr int kSteps = 6;
  Runs<Real> runs(info, stencil, shape, false);
  runs.stepReference(kSteps, sources);
  std::unique_ptr<rt::KernelData> single = runs.start();
  runs.stepSingly(*single, kSteps, singleStep, sources);
  runs.expectNear(*single, fmt::format("{} single steps", info.name), tolerance);
  if (::testing::Test::HasFailure())
    return;

  const rt::Extent e{shape.nx, shape.ny, shape.nz};
  const std::vector<std::pair<std::string, std::vector<rt::Box>>> splits = {
      {"whole extent", {{0, 0, 0, e.nx, e.ny, e.nz}}},
      {"two boxes in y", {{0, 0, 0, e.nx, 10, e.nz}, {0, 10, 0, e.nx, e.ny, e.nz}}},
      {"two boxes in z", {{0, 0, 0, e.nx, e.ny, 9}, {0, 0, 9, e.nx, e.ny, e.nz}}}};
  for (const auto &[splitName, boxes] : splits) {
    if (!is3d && splitName == "two boxes in z")
      continue;
    const std::string label = fmt::format("{} two steps per launch, {}", info.name, splitName);
    std::unique_ptr<rt::KernelData> data = runs.start();
    // One more storage per output for the second step's level, poisoned like the outputs.
    std::vector<rt::Grid<Real>> extra;
    for (int o : outputIds(info)) {
      extra.emplace_back(data->field<Real>(o).shape());
      extra.back().poison();
      eval::zeroHalo(extra.back(), shape);
    }
    rt::ErasedArgs args = data->args();
    std::vector<rt::ErasedField> second;
    for (rt::Grid<Real> &g : extra)
      second.push_back({static_cast<void *>(g.origin()), g.lineStride(), g.planeStride()});
    for (int s = 0; s < kSteps; s += 2) {
      std::vector<StepAdd> adds;
      for (int o : outputIds(info))
        for (const Source &src : sources)
          adds.push_back({o, src.i, src.j, src.k, double(Real(src.amplitude * (s + 1)))});
      for (const rt::Box &box : boxes)
        twoSteps(args, second, box, adds);
      size_t k = 0;
      for (int o : outputIds(info)) {
        (void)o;
        for (const Source &src : sources)
          *pointer<Real>(second[k], src.i, src.j, src.k) += Real(src.amplitude * (s + 2));
        ++k;
      }
      rotateTwoSteps(info, args, second);
    }
    // Every time level's interior, bit for bit.
    for (size_t f = 0; f < info.fields.size(); ++f) {
      if (std::string(info.fields[f].role) != "time")
        continue;
      const rt::Grid<Real> &expect = single->field<Real>(int(f));
      int differing = 0;
      expect.forEachInteriorPoint([&](int i, int j, int k) {
        const Real want = expect(i, j, k), got = *pointer<Real>(args.fields[f], i, j, k);
        differing += std::memcmp(&want, &got, sizeof(Real)) != 0;
      });
      EXPECT_EQ(differing, 0) << label << ": field " << info.fields[f].name << " differs from "
                              << kSteps << " single steps at " << differing << " points";
    }
    if (::testing::Test::HasFailure())
      return;
  }
}

} // namespace stencilc::kerneltest
