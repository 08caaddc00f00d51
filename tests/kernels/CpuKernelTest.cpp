//===- CpuKernelTest.cpp - Every generated CPU kernel against the oracle ---===//
//
// For every kernel linked in (each example in float and double, plus forced
// sub-stencil splits), every variant, odd grid sizes that are multiples of no
// vector width or tile, out of place and in place, and several time steps with
// the levels rotated in between: the output (poisoned with NaN before each
// step) must match the double-precision reference evaluator normwise, with no
// NaN in the interior and nothing written into the halo.
//
//===----------------------------------------------------------------------===//
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"

#include "KernelComparison.h"

#include <stencilc/KernelData.h>
#include <stencilc/KernelSupport.h>

#include <gtest/gtest.h>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <optional>

using namespace stencilc;

namespace {

struct Case {
  const rt::KernelInfo *kernel;
  rt::Variant variant;
};

std::string caseName(const testing::TestParamInfo<Case> &info) {
  return std::string(info.param.kernel->name) + "_" + rt::variantName(info.param.variant);
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const rt::KernelInfo *k : rt::kernelRegistry())
    for (rt::Variant v : {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes})
      cases.push_back({k, v});
  return cases;
}

using eval::copyInputs;
using eval::rotateReference;
using eval::zeroHalo;

/// The example a kernel was generated from, in the kernel's element type.
ir::Stencil loadStencil(const rt::KernelInfo &k) {
  return eval::loadStencilOfKernel(
      std::string(STENCILC_SOURCE_DIR) + "/dsl-examples/" + k.stencil + ".stencil", k);
}

template <typename Real>
void runAndCompare(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::Variant variant,
                   rt::GridShape shape, bool inPlace, int blockY, int blockZ) {
  rt::RunOptions options{variant, blockY, blockZ};
  kerneltest::runAndCompare<Real>(
      info, stencil, shape, inPlace, [&](const rt::ErasedArgs &args) { info.run(args, options); },
      fmt::format("{} {} by {} bz {}", info.name, rt::variantName(variant), blockY, blockZ));
}

class CpuKernel : public testing::TestWithParam<Case> {};

TEST_P(CpuKernel, MatchesReferenceEvaluator) {
  const rt::KernelInfo &info = *GetParam().kernel;
  ir::Stencil stencil = loadStencil(info);
  // Odd sizes, not multiples of any vector width or tile; small explicit tiles
  // as well as the defaults, so partial tiles and ring wrap-around happen.
  std::vector<rt::GridShape> shapes =
      info.dims == 3
          ? std::vector<rt::GridShape>{{3, 19, 7, 11, 0}, {3, 13, 17, 5, 0}, {3, 5, 3, 23, 0}}
          : std::vector<rt::GridShape>{{2, 19, 7, 1, 0}, {2, 37, 13, 1, 0}, {2, 3, 29, 1, 0}};
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  for (const rt::GridShape &shape : shapes)
    for (bool inPlace : {false, true}) {
      if (inPlace && !canRunInPlace)
        continue;
      for (auto [by, bz] : {std::pair{0, 0}, std::pair{3, 4}}) {
        if (std::string(info.elemType) == "float")
          runAndCompare<float>(info, stencil, GetParam().variant, shape, inPlace, by, bz);
        else
          runAndCompare<double>(info, stencil, GetParam().variant, shape, inPlace, by, bz);
        if (HasFatalFailure())
          return;
      }
    }
}

/// The outputs of one step, as bits, over the interior and the halo.
template <typename Real>
std::vector<std::vector<Real>> outputsOf(rt::KernelData &data, const rt::KernelInfo &info) {
  std::vector<std::vector<Real>> out;
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::string_view(info.fields[f].role) == "out") {
      std::vector<Real> values;
      data.field<Real>(int(f)).forEachPointWithHalo(
          [&](int i, int j, int k) { values.push_back(data.field<Real>(int(f))(i, j, k)); });
      out.push_back(std::move(values));
    }
  return out;
}

template <typename Real> void poisonOutputs(rt::KernelData &data, const rt::KernelInfo &info) {
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::string_view(info.fields[f].role) == "out")
      data.field<Real>(int(f)).poison();
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// A step run on boxes (rt::RunOptions::region) writes exactly the points of
/// each box, with the bits of the whole-grid step; boxes that cover the grid
/// (a boundary shell and the interior, as overlapped halo exchange will run
/// them) give the whole-grid step bit for bit; a box outside the grid is refused.
template <typename Real>
void checkRegions(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::Variant variant) {
  rt::GridShape shape =
      info.dims == 3 ? rt::GridShape{3, 21, 13, 11, 0} : rt::GridShape{2, 37, 19, 1, 0};
  eval::EvalSizes sizes{shape.nx, shape.ny, shape.nz, 23, -1};
  eval::EvalData ref = eval::makeRandomEvalData(stencil, sizes, 20261124);
  for (auto &g : ref.grids)
    if (g)
      shape.halo = g->halo();
  rt::KernelData data(info, shape, sizes.tableColumns, /*inPlace=*/false);
  copyInputs<Real>(ref, data);
  rt::RunOptions options{variant, 3, 4};
  poisonOutputs<Real>(data, info);
  info.run(data.args(), options);
  const std::vector<std::vector<Real>> whole = outputsOf<Real>(data, info);

  const int nx = shape.nx, ny = shape.ny, nz = shape.nz;
  const bool flat = info.dims == 2;
  auto box = [&](int x0, int x1, int y0, int y1, int z0, int z1) {
    return flat ? rt::Box{x0, y0, 0, x1, y1, 1} : rt::Box{x0, y0, z0, x1, y1, z1};
  };
  // Odd boxes: inside, on faces and corners, one point, one row, empty.
  const std::vector<rt::Box> boxes = {
      box(3, 18, 2, 11, 1, 10), box(0, 7, 0, 5, 0, 3),  box(nx - 5, nx, ny - 3, ny, nz - 4, nz),
      box(10, 11, 6, 7, 5, 6),  box(0, nx, 4, 5, 2, 3), box(4, 4, 0, ny, 0, nz)};
  for (const rt::Box &b : boxes) {
    poisonOutputs<Real>(data, info);
    options.region = b;
    info.run(data.args(), options);
    const std::vector<std::vector<Real>> got = outputsOf<Real>(data, info);
    int firstOutput = 0;
    while (std::string_view(info.fields[firstOutput].role) != "out")
      ++firstOutput;
    for (size_t o = 0; o < got.size(); ++o) {
      size_t at = 0;
      long wrongInside = 0, writtenOutside = 0;
      // Every output has the same shape: walk the first one's points in outputsOf's order.
      data.field<Real>(firstOutput).forEachPointWithHalo([&](int i, int j, int k) {
        bool inside = i >= b.x0 && i < b.x1 && j >= b.y0 && j < b.y1 && k >= b.z0 && k < b.z1;
        if (inside)
          wrongInside += !sameBits(double(got[o][at]), double(whole[o][at]));
        else
          writtenOutside += !std::isnan(double(got[o][at]));
        ++at;
      });
      ASSERT_EQ(wrongInside, 0) << info.name << " " << rt::variantName(variant) << " box "
                                << rt::boxText(b) << ": points differ from the whole-grid step";
      ASSERT_EQ(writtenOutside, 0) << info.name << " " << rt::variantName(variant) << " box "
                                   << rt::boxText(b) << ": points outside the box written";
    }
  }

  // A shell of width 3 as six boxes, then the interior: the whole step, bit for bit.
  const int w = 3;
  std::vector<rt::Box> cover = {
      box(0, nx, 0, ny, 0, flat ? 1 : w),  box(0, nx, 0, ny, flat ? 0 : nz - w, nz),
      box(0, nx, 0, w, w, nz - w),         box(0, nx, ny - w, ny, w, nz - w),
      box(0, w, w, ny - w, w, nz - w),     box(nx - w, nx, w, ny - w, w, nz - w),
      box(w, nx - w, w, ny - w, w, nz - w)};
  if (flat) // in 2D the z slabs are the whole grid: shell rows and columns instead
    cover = {box(0, nx, 0, w, 0, 1), box(0, nx, ny - w, ny, 0, 1), box(0, w, w, ny - w, 0, 1),
             box(nx - w, nx, w, ny - w, 0, 1), box(w, nx - w, w, ny - w, 0, 1)};
  poisonOutputs<Real>(data, info);
  for (const rt::Box &b : cover) {
    options.region = b;
    info.run(data.args(), options);
  }
  const std::vector<std::vector<Real>> covered = outputsOf<Real>(data, info);
  for (size_t o = 0; o < covered.size(); ++o) {
    long differ = 0;
    for (size_t i = 0; i < covered[o].size(); ++i)
      differ += !sameBits(double(covered[o][i]), double(whole[o][i]));
    ASSERT_EQ(differ, 0) << info.name << " " << rt::variantName(variant)
                         << ": shell + interior differs from the whole-grid step";
  }

  // In place (the output over the level it overwrites, as a distributed run steps): the
  // shell and the interior one after the other give the whole in-place step too.
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  if (canRunInPlace) {
    auto inPlaceStep = [&](const std::vector<std::optional<rt::Box>> &regions) {
      rt::KernelData fresh(info, shape, sizes.tableColumns, /*inPlace=*/true);
      copyInputs<Real>(ref, fresh);
      rt::RunOptions o{variant, 3, 4};
      for (const std::optional<rt::Box> &r : regions) {
        o.region = r;
        info.run(fresh.args(), o);
      }
      return outputsOf<Real>(fresh, info);
    };
    const std::vector<std::vector<Real>> wholeInPlace = inPlaceStep({std::nullopt});
    const std::vector<std::vector<Real>> coveredInPlace =
        inPlaceStep(std::vector<std::optional<rt::Box>>(cover.begin(), cover.end()));
    for (size_t o = 0; o < wholeInPlace.size(); ++o) {
      long differ = 0;
      for (size_t i = 0; i < wholeInPlace[o].size(); ++i)
        differ += !sameBits(double(coveredInPlace[o][i]), double(wholeInPlace[o][i]));
      ASSERT_EQ(differ, 0) << info.name << " " << rt::variantName(variant)
                           << ": in place, shell + interior differs from the whole-grid step";
    }
  }

  options.region = box(0, nx + 1, 0, ny, 0, nz);
  try {
    info.run(data.args(), options);
    ADD_FAILURE() << info.name << ": a region beyond the extent was accepted";
  } catch (const rt::KernelError &e) {
    EXPECT_NE(std::string(e.what()).find(rt::boxText(*options.region)), std::string::npos)
        << e.what();
  }
}

TEST_P(CpuKernel, RegionsComputeExactlyTheirBox) {
  const rt::KernelInfo &info = *GetParam().kernel;
  ir::Stencil stencil = loadStencil(info);
  if (std::string(info.elemType) == "float")
    checkRegions<float>(info, stencil, GetParam().variant);
  else
    checkRegions<double>(info, stencil, GetParam().variant);
}

INSTANTIATE_TEST_SUITE_P(Generated, CpuKernel, testing::ValuesIn(allCases()), caseName);

/// rt::loadColumns stages table rows for kW points at a time with 8- and 4-row
/// register transposes (compiled here with -march=native, as the kernels are):
/// every row range a kernel may ask for, full and partial blocks of points.
template <typename Real> void checkLoadColumns() {
  constexpr int kW = rt::kSimdLanes<Real>;
  const int rows = 17, cols = 50; // 17 rows: a partial last 4-row block, as in ETE-73
  rt::CoefficientTable<Real> table(rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      table(r, c) = Real(r * 1000 + c);
  const rt::PackedTable<Real> packed(rt::view(table));
  std::uint16_t idx[kW];
  for (int l = 0; l < kW; ++l)
    idx[l] = std::uint16_t((l * 37 + 11) % cols);
  for (auto [begin, end] : {std::pair{0, 4}, {0, 8}, {4, 12}, {8, 20}, {0, 20}, {12, 20}})
    for (int n : {kW, 3}) {
      alignas(64) Real out[20 * kW];
      std::fill(out, out + 20 * kW, Real(-1));
      rt::loadColumns<kW>(packed, idx, n, begin, end, out);
      for (int r = 0; r < 20; ++r)
        for (int l = 0; l < kW; ++l) {
          const int col = idx[l < n ? l : 0];
          const Real expected = r < begin || r >= end ? Real(-1)
                                : r < rows            ? Real(r * 1000 + col)
                                                      : Real(0); // padding rows read as zero
          ASSERT_EQ(out[r * kW + l], expected) << "rows [" << begin << ", " << end << "), n = " << n
                                               << ", r = " << r << ", lane " << l;
        }
    }
}

TEST(CpuKernelSupport, LoadColumnsTransposesFloat) { checkLoadColumns<float>(); }
TEST(CpuKernelSupport, LoadColumnsTransposesDouble) { checkLoadColumns<double>(); }

TEST(CpuKernelRegistry, HoldsEveryExampleInBothPrecisions) {
  // 7 examples x 2 precisions, plus the forced splits listed in CMakeLists.txt.
  EXPECT_GE(rt::kernelRegistry().size(), 14u);
}

} // namespace
