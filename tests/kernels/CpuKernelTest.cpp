//===- CpuKernelTest.cpp - Every generated CPU kernel against the oracle ---===//
//
// For every kernel linked in (each example in float and double, plus forced
// sub-stencil splits), every variant, odd grid sizes that are multiples of no
// vector width or tile, out of place and in place, and several time steps with
// the levels rotated in between: the output (poisoned with NaN before each
// step) must match the double-precision reference evaluator normwise, with no
// NaN in the interior and nothing written into the halo. On boxes
// (rt::RunOptions::region), with default and small tiles: a box gets the bits
// of the whole-grid step and nothing else is written; a shell and its
// interior give the whole step bit for bit, out of place and in place; a box
// outside the extent is refused (tests/support/KernelComparison.h).
//
//===----------------------------------------------------------------------===//
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"

#include "KernelComparison.h"
#include "StencilOfKernel.h"

#include <stencilc/KernelData.h>
#include <stencilc/KernelSupport.h>

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fmt/format.h>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

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

/// Tiles of a test: x (0: whole rows), y and z (0: the kernel's defaults).
struct Tiles {
  int x = 0, y = 0, z = 0;
};

/// The defaults and small tiles (partial tiles and ring wrap-around happen).
constexpr Tiles kTestTiles[] = {{0, 0, 0}, {0, 3, 4}};
/// Those and the small ones cut in x too (16 points, a tile that divides no test's
/// rows), for the region checks; XTilesGiveWholeRowsBitForBit ties x tiles to whole rows.
constexpr Tiles kRegionTestTiles[] = {{0, 0, 0}, {0, 3, 4}, {16, 3, 4}};

rt::RunOptions optionsOf(rt::Variant variant, Tiles t) {
  rt::RunOptions o{variant, t.y, t.z};
  o.blockX = t.x;
  return o;
}

std::string tilesText(const rt::KernelInfo &info, rt::Variant variant, Tiles t) {
  return fmt::format("{} {} bx {} by {} bz {}", info.name, rt::variantName(variant), t.x, t.y, t.z);
}

template <typename Real>
void runAndCompare(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::Variant variant,
                   rt::GridShape shape, bool inPlace, Tiles tiles) {
  const rt::RunOptions options = optionsOf(variant, tiles);
  kerneltest::runAndCompare<Real>(
      info, stencil, shape, inPlace, [&](const rt::ErasedArgs &args) { info.run(args, options); },
      tilesText(info, variant, tiles));
}

class CpuKernel : public testing::TestWithParam<Case> {};

TEST_P(CpuKernel, MatchesReferenceEvaluator) {
  const rt::KernelInfo &info = *GetParam().kernel;
  ir::Stencil stencil = kerneltest::stencilOfKernel(info);
  // Odd sizes, not multiples of any vector width or tile; small explicit tiles
  // as well as the defaults, so partial tiles and ring wrap-around happen.
  std::vector<rt::GridShape> shapes =
      info.dims == 3
          ? std::vector<rt::GridShape>{{3, 19, 7, 11, 0}, {3, 13, 17, 5, 0}, {3, 5, 3, 23, 0}}
          : std::vector<rt::GridShape>{{2, 19, 7, 1, 0}, {2, 37, 13, 1, 0}, {2, 3, 29, 1, 0}};
  if (info.dims == 3) {
    // Rows of 8 cache lines (117 + 2r <= 128 floats, or 16 lines of doubles)
    // and 16 rows a plane with the halo: rt::GridLayout pads both strides, so
    // the kernels must read the plane stride, not line x rows.
    const rt::GridShape padded{3, 117, std::max(3, 16 - 2 * info.radius), 5, 0};
    rt::GridShape withHalo = padded;
    withHalo.halo = info.radius;
    const rt::GridLayout f = rt::GridLayout::of<float>(withHalo);
    EXPECT_GT(f.plane, f.line * f.rows) << "the plane of this shape is not padded";
    shapes.push_back(padded);
  }
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  for (const rt::GridShape &shape : shapes)
    for (bool inPlace : {false, true}) {
      if (inPlace && !canRunInPlace)
        continue;
      for (Tiles tiles : kTestTiles) {
        if (std::string(info.elemType) == "float")
          runAndCompare<float>(info, stencil, GetParam().variant, shape, inPlace, tiles);
        else
          runAndCompare<double>(info, stencil, GetParam().variant, shape, inPlace, tiles);
        if (HasFatalFailure())
          return;
      }
    }
}

/// A call of `info` with `options` on a region.
kerneltest::RegionCall regionCall(const rt::KernelInfo &info, rt::RunOptions options) {
  return [&info, options](const rt::ErasedArgs &args, const std::optional<rt::Box> &region) {
    rt::RunOptions o = options;
    o.region = region;
    info.run(args, o);
  };
}

/// The region checks of tests/support/KernelComparison.h with kRegionTestTiles, so that
/// boxes end inside tiles and tiles inside boxes.
template <typename Real>
void checkRegions(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::Variant variant) {
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  for (Tiles tiles : kRegionTestTiles) {
    const rt::RunOptions options = optionsOf(variant, tiles);
    const std::string label = tilesText(info, variant, tiles);
    kerneltest::checkBoxes<Real>(info, stencil, regionCall(info, options), label);
    for (bool inPlace : {false, true})
      if (!inPlace || canRunInPlace)
        kerneltest::checkSplitStep<Real>(info, stencil, regionCall(info, options), inPlace, label);
    kerneltest::checkBoxesOutsideRefused(info, regionCall(info, options), label);
    if (::testing::Test::HasFatalFailure())
      return;
  }
}

TEST_P(CpuKernel, RegionsComputeExactlyTheirBox) {
  const rt::KernelInfo &info = *GetParam().kernel;
  ir::Stencil stencil = kerneltest::stencilOfKernel(info);
  if (std::string(info.elemType) == "float")
    checkRegions<float>(info, stencil, GetParam().variant);
  else
    checkRegions<double>(info, stencil, GetParam().variant);
}

/// Tiles cut in x give the whole rows' bits (every tile computes each point by the
/// same expression): x tiles of 16 points (rounded up from 5) on rows of 37 and 19
/// points, in place and out of place.
template <typename Real>
void checkXTiles(const rt::KernelInfo &info, const ir::Stencil &stencil, rt::Variant variant) {
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  const std::vector<rt::GridShape> shapes =
      info.dims == 3 ? std::vector<rt::GridShape>{{3, 37, 11, 9, 0}, {3, 19, 7, 5, 0}}
                     : std::vector<rt::GridShape>{{2, 37, 13, 1, 0}};
  for (const rt::GridShape &shape : shapes)
    for (bool inPlace : {false, true}) {
      if (inPlace && !canRunInPlace)
        continue;
      kerneltest::checkSameStep<Real>(info, stencil, shape,
                                      regionCall(info, optionsOf(variant, {0, 3, 4})),
                                      regionCall(info, optionsOf(variant, {5, 3, 4})), inPlace,
                                      tilesText(info, variant, {5, 3, 4}));
      if (::testing::Test::HasFatalFailure())
        return;
    }
}

TEST_P(CpuKernel, XTilesGiveWholeRowsBitForBit) {
  const rt::KernelInfo &info = *GetParam().kernel;
  ir::Stencil stencil = kerneltest::stencilOfKernel(info);
  if (std::string(info.elemType) == "float")
    checkXTiles<float>(info, stencil, GetParam().variant);
  else
    checkXTiles<double>(info, stencil, GetParam().variant);
}

TEST(ChooseRowBlock, WholeRowsUnlessAskedAndWholeLinesOtherwise) {
  EXPECT_EQ(rt::chooseRowBlock(0, 37), 37);
  EXPECT_EQ(rt::chooseRowBlock(-3, 37), 37);
  EXPECT_EQ(rt::chooseRowBlock(5, 37), 16);
  EXPECT_EQ(rt::chooseRowBlock(16, 37), 16);
  EXPECT_EQ(rt::chooseRowBlock(17, 37), 32);
  EXPECT_EQ(rt::chooseRowBlock(100, 37), 37);
  EXPECT_EQ(rt::chooseRowBlock(5, 0), 1);
}

// Auto, the default: naive while the whole planes it reads again in z (acoustic_iso8
// in float: 9 planes of u) fit half of the last-level cache, one window per thread;
// blocked past that. With a 32 MiB cache and 2 threads: 208^3 (3.4 MB) fits, 512^3
// (19.5 MB) does not. Where the cache is unknown, or nothing is read on several
// planes, naive.
TEST(ChooseVariant, AutoIsNaiveWhereWholePlanesFitTheLastLevelAndBlockedWhereNot) {
  const rt::LayerFootprint acoustic{4, 4, 4, 1, 4}, flat{1, 1, 0, 0, 4};
  const long long l3 = 32LL << 20;
  EXPECT_TRUE(rt::wholePlanesFit(acoustic, 208, 208, 2, l3));
  EXPECT_FALSE(rt::wholePlanesFit(acoustic, 512, 512, 2, l3));
  EXPECT_TRUE(rt::wholePlanesFit(acoustic, 512, 512, 1, l3));
  EXPECT_TRUE(rt::wholePlanesFit(acoustic, 1 << 14, 1 << 14, 2, 0)) << "an unknown cache";
  EXPECT_TRUE(rt::wholePlanesFit(flat, 1 << 14, 1 << 14, 2, l3));
  EXPECT_EQ(rt::RunOptions{}.variant, rt::Variant::Auto);
  for (rt::Variant v : {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes})
    EXPECT_EQ(rt::chooseVariant(v, acoustic, 1 << 14, 1 << 14), v) << "as asked";
  EXPECT_EQ(rt::chooseVariant(rt::Variant::Auto, acoustic, 16, 16), rt::Variant::Naive);
  EXPECT_EQ(rt::chooseVariant(rt::Variant::Auto, flat, 1 << 14, 1 << 14), rt::Variant::Naive);
  if (rt::hostCaches().lastLevel() > 0)
    EXPECT_EQ(rt::chooseVariant(rt::Variant::Auto, acoustic, 1 << 14, 1 << 14),
              rt::Variant::Blocked);
  EXPECT_EQ(rt::parseVariant("auto"), rt::Variant::Auto);
}

INSTANTIATE_TEST_SUITE_P(Generated, CpuKernel, testing::ValuesIn(allCases()), caseName);

/// Rows and columns of the numbered table below: 17 rows, so that its last
/// 4-row block is partial, as in ETE-73.
constexpr int kNumberedRows = 17, kNumberedColumns = 50;

/// A table whose entry C[r][c] is r * 1000 + c, packed.
template <typename Real> rt::PackedTable<Real> numberedTable() {
  rt::CoefficientTable<Real> table(kNumberedRows, kNumberedColumns);
  for (int r = 0; r < kNumberedRows; ++r)
    for (int c = 0; c < kNumberedColumns; ++c)
      table(r, c) = Real(r * 1000 + c);
  return rt::PackedTable<Real>(rt::view(table)); // a copy: the table may go
}

/// The index values of a block of W points: scattered over the columns, of
/// the index type I a kernel may read.
template <typename I, int W> std::array<I, W> scatteredColumns() {
  std::array<I, W> idx;
  for (int l = 0; l < W; ++l)
    idx[l] = I((l * 37 + 11) % kNumberedColumns);
  return idx;
}

/// rt::loadColumns stages table rows for kW points at a time with 8- and 4-row
/// register transposes (compiled here with -march=native, as the kernels are):
/// every row range a kernel may ask for, full and partial blocks of points.
template <typename Real> void checkLoadColumns() {
  constexpr int kW = rt::kSimdLanes<Real>;
  const int rows = kNumberedRows;
  const rt::PackedTable<Real> packed = numberedTable<Real>();
  const std::array<std::uint16_t, kW> idx = scatteredColumns<std::uint16_t, kW>();
  for (auto [begin, end] : {std::pair{0, 4}, {0, 8}, {4, 12}, {8, 20}, {0, 20}, {12, 20}})
    for (int n : {kW, 3}) {
      alignas(64) Real out[20 * kW];
      std::fill(out, out + 20 * kW, Real(-1));
      rt::loadColumns<kW>(packed, idx.data(), n, begin, end, out);
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

/// rt::transposeColumns fills one vector per row for a whole block of kW points
/// (the generated rows' registers): every row range a kernel may ask for, and
/// nothing outside it written.
template <typename Real> void checkTransposeColumns() {
  constexpr int kW = rt::kSimdLanes<Real>;
  const int rows = kNumberedRows;
  const rt::PackedTable<Real> packed = numberedTable<Real>();
  const std::array<std::int32_t, kW> idx = scatteredColumns<std::int32_t, kW>();
  for (auto [begin, end] : {std::pair{0, 4}, {0, 8}, {4, 12}, {8, 20}, {0, 20}, {12, 20}}) {
    Real minusOnes[kW];
    std::fill(minusOnes, minusOnes + kW, Real(-1));
    rt::Vec<Real> out[20 + 1];
    for (rt::Vec<Real> &v : out)
      std::memcpy(&v, minusOnes, sizeof v);
    rt::transposeColumns<kW>(packed, idx.data(), begin, end, out);
    for (int i = 0; i <= 20; ++i)
      for (int l = 0; l < kW; ++l) {
        const int r = begin + i;
        const Real expected = r >= end   ? Real(-1)
                              : r < rows ? Real(r * 1000 + idx[l])
                                         : Real(0); // padding rows read as zero
        ASSERT_EQ(out[i][l], expected)
            << "rows [" << begin << ", " << end << "), r = " << r << ", lane " << l;
      }
  }
}

TEST(CpuKernelSupport, TransposeColumnsFloat) { checkTransposeColumns<float>(); }
TEST(CpuKernelSupport, TransposeColumnsDouble) { checkTransposeColumns<double>(); }

/// Memory whose one readable page lies between two that may not be read, so
/// that a read past either end of it stops the test.
class GuardedPage {
public:
  GuardedPage() : size_(std::size_t(sysconf(_SC_PAGESIZE))) {
    void *m = mmap(nullptr, 3 * size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
      throw std::runtime_error("mmap failed");
    base_ = static_cast<char *>(m);
    mprotect(base_, size_, PROT_NONE);
    mprotect(base_ + 2 * size_, size_, PROT_NONE);
  }
  ~GuardedPage() { munmap(base_, 3 * size_); }
  GuardedPage(const GuardedPage &) = delete;
  GuardedPage &operator=(const GuardedPage &) = delete;
  template <typename T> T *begin() const { return reinterpret_cast<T *>(base_ + size_); }
  template <typename T> T *end() const { return reinterpret_cast<T *>(base_ + 2 * size_); }

private:
  std::size_t size_;
  char *base_;
};

/// rt::shifted<D, Below, Above> equals rt::load(p + D) for every offset D of
/// the reach, and reads nothing outside [p - Below, p + Above + W): that span
/// is put at the start and at the end of a page whose neighbours may not be
/// read.
template <typename Real, int Below, int Above> void checkShiftedReach() {
  constexpr int kW = rt::kSimdLanes<Real>;
  const GuardedPage page;
  Real *const first = page.begin<Real>(), *const end = page.end<Real>();
  for (Real *q = first; q < end; ++q)
    *q = Real(q - first);
  for (const Real *p : {first + Below, end - Above - kW})
    [&]<int... I>(std::integer_sequence<int, I...>) {
      auto check = [&]<int D>(std::integral_constant<int, D>) {
        const rt::Vec<Real> v = rt::shifted<D, Below, Above>(p);
        for (int l = 0; l < kW; ++l)
          ASSERT_EQ(v[l], p[D + l]) << "D = " << D << ", reach " << Below << " below and " << Above
                                    << " above, lane " << l;
      };
      (check(std::integral_constant<int, I - Below>{}), ...);
    }
  (std::make_integer_sequence<int, Below + Above + 1>{});
}

/// A row's reach below and above x, as a type: for checkShiftedReaches' lists.
template <int Below, int Above> struct Reach {};

template <typename Real, int... Below, int... Above>
void checkShiftedReaches(Reach<Below, Above>...) {
  (checkShiftedReach<Real, Below, Above>(), ...);
}

// Reaches of W (one pair of vectors), more (two pairs), less (plain loads), one-sided.
TEST(CpuKernelSupport, ShiftedFloat) {
  checkShiftedReaches<float>(Reach<4, 4>{}, Reach<2, 6>{}, Reach<1, 7>{}, Reach<0, 8>{},
                             Reach<8, 0>{}, Reach<6, 8>{}, Reach<8, 8>{}, Reach<3, 3>{},
                             Reach<9, 9>{});
}
TEST(CpuKernelSupport, ShiftedDouble) {
  checkShiftedReaches<double>(Reach<2, 2>{}, Reach<1, 3>{}, Reach<4, 4>{}, Reach<3, 4>{},
                              Reach<0, 4>{}, Reach<1, 1>{}, Reach<5, 5>{});
}

// A packed table's view is used in place, not packed again (what runTimeTiled relies on to pack
// once per run); a view marked packed whose strides are not the packed layout's is packed.
TEST(CpuKernelSupport, PackedTablesAreUsedInPlace) {
  rt::CoefficientTable<float> table(11, 23);
  for (int r = 0; r < 11; ++r)
    for (int c = 0; c < 23; ++c)
      table(r, c) = float(r * 100 + c);
  const rt::PackedTable<float> packed(rt::view(table));
  const rt::TableView<float> view = packed.view();
  EXPECT_TRUE(view.packed);
  EXPECT_EQ(view.rowStride, 1);
  EXPECT_EQ(view.colStride, 16);
  const rt::PackedTable<float> inPlace(view);
  EXPECT_EQ(inPlace.column(5), packed.column(5));
  rt::TableView<float> mislabelled = rt::view(table);
  mislabelled.packed = true;
  const rt::PackedTable<float> repacked(mislabelled);
  EXPECT_NE(repacked.column(0), static_cast<const float *>(mislabelled.data));
  for (int c = 0; c < 23; ++c)
    for (int r = 0; r < 16; ++r) {
      const float expected = r < 11 ? float(r * 100 + c) : 0.0f;
      ASSERT_EQ(inPlace.column(c)[r], expected) << "r = " << r << ", c = " << c;
      ASSERT_EQ(repacked.column(c)[r], expected) << "r = " << r << ", c = " << c;
    }
}

TEST(CpuKernelRegistry, HoldsEveryExampleInBothPrecisions) {
  // 7 examples x 2 precisions, plus the forced splits listed in CMakeLists.txt.
  EXPECT_GE(rt::kernelRegistry().size(), 14u);
}

} // namespace
