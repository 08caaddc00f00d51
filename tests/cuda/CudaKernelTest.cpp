//===- CudaKernelTest.cpp - Every generated CUDA kernel against the oracle -===//
//
// The generated .cu files are compiled as C++ against the CUDA emulator
// (stencilc/cuda/Cuda.h without nvcc) and run on the CPU. For every kernel
// (each example in float and double, plus forced sub-stencil splits), every
// CUDA variant, three odd grid sizes, launch geometries that leave partial
// blocks in x, y and z, out of place and in place, and several time steps with
// the levels rotated in between: the output (poisoned with NaN before each
// step) must match the double-precision reference evaluator normwise, with no
// NaN in the interior and nothing written into the halo. The threads of a
// block run in a shuffled order between barriers, so a missing
// __syncthreads() in a kernel shows up as a wrong result.
//
// Regions (LaunchOptions::region): on an odd grid, every variant computes
// exactly the points of a box, bit for bit as a whole-grid call does, and
// writes nothing else; boxes that cover the grid (a boundary shell and its
// interior, as overlapped halo exchange splits a step) give the whole-grid
// step; a box outside the extent is refused.
//
//===----------------------------------------------------------------------===//
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"

#include "KernelComparison.h"

#include <stencilc/KernelData.h>
#include <stencilc/cuda/Cuda.h>

#include "CudaKernels.inc" // every generated <kernel>_cuda.h and STENCILC_CUDA_KERNELS(X)

#include <gtest/gtest.h>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <optional>

using namespace stencilc;

namespace {

/// The launch options every generated header defines, in one type for the test.
struct TestLaunch {
  int variant = 0; ///< index into the kernel's kVariants
  int blockX = 0, blockY = 0, nw = 0, sharedBytes = 0;
  std::optional<rt::Box> region = std::nullopt; ///< LaunchOptions::region
};

struct CudaKernel {
  const rt::KernelInfo &(*info)();
  void (*run)(const rt::ErasedArgs &, const TestLaunch &);
  const char *(*variantName)(int variant);
};

#define STENCILC_CUDA_ENTRY(name)                                                                  \
  CudaKernel{&stencilc_kernels::name##_cuda::kernelInfo,                                           \
             [](const rt::ErasedArgs &e, const TestLaunch &t) {                                    \
               namespace k = stencilc_kernels::name##_cuda;                                        \
               k::LaunchOptions o;                                                                 \
               o.variant = k::kVariants[t.variant];                                                \
               o.blockX = t.blockX;                                                                \
               o.blockY = t.blockY;                                                                \
               o.nw = t.nw;                                                                        \
               o.sharedBytes = t.sharedBytes;                                                      \
               o.region = t.region;                                                                \
               k::runErased(e, o);                                                                 \
             },                                                                                    \
             [](int v) {                                                                           \
               return stencilc_kernels::name##_cuda::variantName(                                  \
                   stencilc_kernels::name##_cuda::kVariants[v]);                                   \
             }},

const std::vector<CudaKernel> &allKernels() {
  static const std::vector<CudaKernel> kernels = {STENCILC_CUDA_KERNELS(STENCILC_CUDA_ENTRY)};
  return kernels;
}

constexpr int kVariantCount = 4; // gmem, ro, traditional, planes

struct Case {
  const CudaKernel *kernel;
  int variant;
};

std::string caseName(const testing::TestParamInfo<Case> &info) {
  return std::string(info.param.kernel->info().name) + "_" +
         info.param.kernel->variantName(info.param.variant);
}

std::vector<Case> allCases() {
  std::vector<Case> cases;
  for (const CudaKernel &k : allKernels())
    for (int v = 0; v < kVariantCount; ++v)
      cases.push_back({&k, v});
  return cases;
}

/// The kernels generated with an explicit GPU plan (tests/cuda/CMakeLists.txt names them
/// NAME_smXY_BUDGET_TYPE): their plan puts table rows in shared memory, not the backend.
bool planPinsSharedRows(const rt::KernelInfo &k) {
  return std::string(k.name).find("_sm") != std::string::npos;
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
void runAndCompare(const CudaKernel &kernel, const ir::Stencil &stencil, const TestLaunch &launch,
                   rt::GridShape shape, bool inPlace) {
  kerneltest::runAndCompare<Real>(
      kernel.info(), stencil, shape, inPlace,
      [&](const rt::ErasedArgs &args) { kernel.run(args, launch); },
      fmt::format("{} {} block {}x{} nw {} shared {}", kernel.info().name,
                  kernel.variantName(launch.variant), launch.blockX, launch.blockY, launch.nw,
                  launch.sharedBytes));
}

class CudaKernelTest : public testing::TestWithParam<Case> {
protected:
  // Between barriers the emulator runs a block's threads in a shuffled order,
  // so a kernel that relies on an order the hardware does not promise fails.
  void SetUp() override {
    stencilc::cuda::emu::setSchedule(stencilc::cuda::emu::Schedule::Shuffled, 20261122);
  }
  void TearDown() override {
    stencilc::cuda::emu::setSchedule(stencilc::cuda::emu::Schedule::InOrder, 0);
  }
};

TEST_P(CudaKernelTest, MatchesReferenceEvaluator) {
  const CudaKernel &kernel = *GetParam().kernel;
  const rt::KernelInfo &info = kernel.info();
  const bool isFloat = std::string(info.elemType) == "float";
  ir::Stencil stencil = loadStencil(info);
  // Odd sizes, multiples of no block size; blocks of the default shape and small
  // ones that leave partial blocks in x and y and partial z chunks (nw = 3).
  std::vector<rt::GridShape> shapes =
      info.dims == 3
          ? std::vector<rt::GridShape>{{3, 19, 7, 11, 0}, {3, 13, 17, 5, 0}, {3, 5, 3, 23, 0}}
          : std::vector<rt::GridShape>{{2, 19, 7, 1, 0}, {2, 37, 13, 1, 0}, {2, 3, 29, 1, 0}};
  std::vector<TestLaunch> launches = {{GetParam().variant, 0, 0, 0, 0},
                                      {GetParam().variant, 8, 4, 3, 0}};
  // With a budget that holds the shared planes but not the table rows, the planes
  // kernel reads the rows the plan left to the backend through the read-only cache.
  // A kernel whose plan pins rows in shared memory cannot (PinnedPlanRefusesASmallBudget).
  if (!info.tables.empty() && !planPinsSharedRows(info))
    launches.push_back({GetParam().variant, 8, 4, 3, isFloat ? 1024 : 2048});
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  for (const rt::GridShape &shape : shapes)
    for (const TestLaunch &launch : launches)
      for (bool inPlace : {false, true}) {
        if (inPlace && !canRunInPlace)
          continue;
        if (isFloat)
          runAndCompare<float>(kernel, stencil, launch, shape, inPlace);
        else
          runAndCompare<double>(kernel, stencil, launch, shape, inPlace);
        if (HasFatalFailure())
          return;
      }
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// Odd sizes, multiples of no block size (neither the default 32 x 8 nor 8 x 4) and of no nw.
rt::GridShape regionShape(const rt::KernelInfo &info) {
  return info.dims == 3 ? rt::GridShape{3, 13, 11, 9, 0} : rt::GridShape{2, 17, 13, 1, 0};
}

/// The default launch, and small blocks that leave partial blocks and z chunks in every box.
std::vector<TestLaunch> regionLaunches(int variant) {
  return {{variant, 0, 0, 0, 0, std::nullopt}, {variant, 8, 4, 3, 0, std::nullopt}};
}

bool sameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool contains(const rt::Box &b, int i, int j, int k) {
  return i >= b.x0 && i < b.x1 && j >= b.y0 && j < b.y1 && k >= b.z0 && k < b.z1;
}

/// One time step of a kernel on the reference evaluator's random inputs (halos included, so
/// that a box reads valid neighbours outside it), repeatable: each step starts from the same
/// inputs, with the outputs poisoned (out of place).
template <typename Real> class RegionStep {
public:
  RegionStep(const CudaKernel &kernel, const ir::Stencil &stencil, rt::GridShape shape,
             bool inPlace)
      : kernel_(kernel),
        ref_(eval::makeRandomEvalData(stencil, {shape.nx, shape.ny, shape.nz, 23, -1}, 20261124)),
        data_(kernel.info(), withHalo(shape, ref_), 23, inPlace) {}

  /// Runs the step as one call per region (nullopt: the whole extent), in order.
  void run(TestLaunch launch, const std::vector<std::optional<rt::Box>> &regions) {
    copyInputs<Real>(ref_, data_); // in place, the last step overwrote an input
    for (int f : outputs())
      if (!data_.inPlace())
        data_.field<Real>(f).poison();
    for (const std::optional<rt::Box> &region : regions) {
      launch.region = region;
      kernel_.run(data_.args(), launch);
    }
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

  const CudaKernel &kernel_;
  eval::EvalData ref_;
  rt::KernelData data_;
};

/// Boxes strictly inside the extent, touching its low faces, touching its high faces, one
/// column thick in x (and one plane in z) from face to face in y, and an empty one.
std::vector<rt::Box> oddBoxes(const rt::GridShape &s) {
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

/// The extent as a boundary shell `w` points thick (two slabs per dimension split, z first)
/// and its interior: the boxes overlapped halo exchange computes, the shell first.
std::vector<std::optional<rt::Box>> shellAndInterior(const rt::GridShape &s, int w) {
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

template <typename Real>
void checkRegions(const CudaKernel &kernel, const ir::Stencil &stencil, int variant) {
  const rt::KernelInfo &info = kernel.info();
  const rt::GridShape shape = regionShape(info);
  RegionStep<Real> whole(kernel, stencil, shape, false), part(kernel, stencil, shape, false);
  for (TestLaunch launch : regionLaunches(variant)) {
    whole.run(launch, {std::nullopt});
    for (const rt::Box &box : oddBoxes(shape)) {
      part.run(launch, {box});
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
        std::string where =
            fmt::format("{} {} {}x{}x{} block {}x{} nw {} box {} field {}", info.name,
                        kernel.variantName(variant), shape.nx, shape.ny, shape.nz, launch.blockX,
                        launch.blockY, launch.nw, rt::boxText(box), info.fields[f].name);
        ASSERT_EQ(unset, 0) << where << ": the whole-grid call left points unwritten";
        ASSERT_EQ(wrong, 0) << where << ": points differ from the whole-grid call";
        ASSERT_EQ(written, 0) << where << ": points outside the box written";
      }
    }
  }
}

template <typename Real>
void checkShellAndInterior(const CudaKernel &kernel, const ir::Stencil &stencil, int variant,
                           bool inPlace) {
  const rt::KernelInfo &info = kernel.info();
  const rt::GridShape shape = regionShape(info);
  const std::vector<std::optional<rt::Box>> boxes = shellAndInterior(shape, 3);
  long long covered = 0;
  for (const std::optional<rt::Box> &b : boxes)
    covered += b->points();
  ASSERT_EQ(covered, (long long)shape.nx * shape.ny * shape.nz) << "the boxes overlap";
  RegionStep<Real> whole(kernel, stencil, shape, inPlace), split(kernel, stencil, shape, inPlace);
  for (TestLaunch launch : regionLaunches(variant)) {
    whole.run(launch, {std::nullopt});
    split.run(launch, boxes);
    for (int f : split.outputs()) {
      const rt::Grid<Real> &want = whole.field(f), &got = split.field(f);
      // All of the storage, halo and padding too: the same bits, NaN poison included.
      ASSERT_EQ(std::memcmp(got.storage(), want.storage(), sizeof(Real) * want.storageElements()),
                0)
          << info.name << " " << kernel.variantName(variant) << " block " << launch.blockX << "x"
          << launch.blockY << " nw " << launch.nw << " field " << info.fields[f].name
          << (inPlace ? " in place" : "") << ": the split step differs from the whole-grid step";
    }
  }
}

TEST_P(CudaKernelTest, RegionComputesExactlyItsBox) {
  const CudaKernel &kernel = *GetParam().kernel;
  ir::Stencil stencil = loadStencil(kernel.info());
  if (std::string(kernel.info().elemType) == "float")
    checkRegions<float>(kernel, stencil, GetParam().variant);
  else
    checkRegions<double>(kernel, stencil, GetParam().variant);
}

TEST_P(CudaKernelTest, ShellAndInteriorMakeTheWholeStep) {
  const CudaKernel &kernel = *GetParam().kernel;
  const rt::KernelInfo &info = kernel.info();
  ir::Stencil stencil = loadStencil(info);
  bool canRunInPlace = false;
  for (const rt::KernelFieldInfo &f : info.fields)
    canRunInPlace |= f.overwrites >= 0;
  for (bool inPlace : {false, true}) {
    if (inPlace && !canRunInPlace)
      continue;
    if (std::string(info.elemType) == "float")
      checkShellAndInterior<float>(kernel, stencil, GetParam().variant, inPlace);
    else
      checkShellAndInterior<double>(kernel, stencil, GetParam().variant, inPlace);
    if (HasFatalFailure())
      return;
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaKernelTest, testing::ValuesIn(allCases()), caseName);

TEST(CudaKernelLaunch, RejectsRegionsOutsideTheExtent) {
  for (const CudaKernel &kernel : allKernels()) {
    const rt::KernelInfo &info = kernel.info();
    const rt::GridShape shape = regionShape(info);
    rt::KernelData data(info, {shape.dims, shape.nx, shape.ny, shape.nz, info.radius}, 4, false);
    const int nz = shape.nz;
    // Past the high x face, before the low y face, past the high z face, and upside down in z.
    const std::vector<rt::Box> outside = {{0, 0, 0, shape.nx + 1, shape.ny, nz},
                                          {0, -1, 0, shape.nx, shape.ny, nz},
                                          {0, 0, 0, shape.nx, shape.ny, nz + 1},
                                          {0, 0, nz, shape.nx, shape.ny, nz - 1}};
    for (int variant = 0; variant < kVariantCount; ++variant)
      for (const rt::Box &box : outside) {
        try {
          kernel.run(data.args(), TestLaunch{variant, 0, 0, 0, 0, box});
          ADD_FAILURE() << info.name << ": region " << rt::boxText(box) << " was accepted";
        } catch (const rt::KernelError &e) {
          const std::string message = e.what();
          EXPECT_NE(message.find(rt::boxText(box)), std::string::npos) << message;
          EXPECT_EQ(message.rfind(info.name, 0), 0u) << message;
        }
      }
  }
}

TEST(CudaKernelLaunch, RejectsBlocksLargerThanCompiledFor) {
  const CudaKernel &kernel = allKernels().front();
  const rt::KernelInfo &info = kernel.info();
  rt::GridShape shape{info.dims, 9, 9, info.dims == 3 ? 9 : 1, info.radius + 2};
  rt::KernelData data(info, shape, 4, false);
  EXPECT_THROW(kernel.run(data.args(), TestLaunch{0, 64, 64, 0, 0}), rt::KernelError);
}

TEST(CudaKernelLaunch, PinnedPlanRefusesASmallBudget) {
  // ete73 in double planned for 48 KiB on sm_80: 6 table rows in shared memory. A budget
  // that holds the plane tile but not those rows is refused before any launch, by
  // traditional as by planes.
  int checked = 0;
  for (const CudaKernel &kernel : allKernels()) {
    const rt::KernelInfo &info = kernel.info();
    if (!planPinsSharedRows(info))
      continue;
    rt::GridShape shape{info.dims, 13, 9, 7, info.radius};
    rt::KernelData data(info, shape, 902, false);
    // Both marching variants (traditional, planes) read the rows where the plan put them.
    for (int variant : {kVariantCount - 2, kVariantCount - 1})
      try {
        kernel.run(data.args(), TestLaunch{variant, 8, 4, 3, 2048});
        ADD_FAILURE() << info.name << " " << kernel.variantName(variant)
                      << ": a 2048-byte budget was accepted";
      } catch (const rt::KernelError &e) {
        EXPECT_NE(std::string(e.what()).find("over the budget"), std::string::npos) << e.what();
      }
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

TEST(CudaKernelRegistry, HoldsEveryExampleInBothPrecisions) {
  // 7 examples x 2 precisions, plus the forced splits listed in CMakeLists.txt.
  EXPECT_GE(allKernels().size(), 14u);
}

} // namespace
