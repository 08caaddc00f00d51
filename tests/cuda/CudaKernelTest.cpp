//===- CudaKernelTest.cpp - Every generated CUDA kernel against the oracle -===//
//
// The generated .cu files are compiled as C++ against the CUDA emulator
// (stencilc/cuda/Cuda.h without nvcc) and run on the CPU. For every kernel
// (each example in float and double, plus forced sub-stencil splits and the
// wave example's steps with their derived adjoints), every
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
// Rows per thread (LaunchOptions::rows): 2 and 4 rows give the one-row step
// bit for bit.
//
// Temporal blocking: every kernel that steps in time, each box of a time-tiled
// pass one launch on a region, equals single launches bit for bit
// (TimeTilingCheck.h).
//
//===----------------------------------------------------------------------===//
#include "eval/KernelInputs.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"
#include "ir/linear/LinearForm.h"
#include "passes/Adjoint.h"

#include "KernelComparison.h"
#include "StencilOfKernel.h"
#include "TimeTilingCheck.h"
#include "TwoStepCheck.h"

#include <stencilc/KernelData.h>
#include <stencilc/cuda/Cuda.h>

#include "CudaKernels.inc" // every generated <kernel>_cuda.h and STENCILC_CUDA_KERNELS(X)

#include <gtest/gtest.h>

#include <filesystem>

#include "passes/Linearize.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <stdexcept>

using namespace stencilc;

namespace {

/// The launch options every generated header defines, in one type for the test.
struct TestLaunch {
  int variant = 0; ///< index into the kernel's kVariants
  int blockX = 0, blockY = 0, nw = 0, sharedBytes = 0;
  std::optional<rt::Box> region = std::nullopt; ///< LaunchOptions::region
  int rows = 0;                                 ///< LaunchOptions::rows
};

struct CudaKernel {
  const rt::KernelInfo &(*info)();
  void (*run)(const rt::ErasedArgs &, const TestLaunch &);
  const char *(*variantName)(int variant);
  bool (*takesRows)(int variant);
  bool twoStepLaunch; ///< kTwoStepLaunch
  void (*runTwoSteps)(const rt::ErasedArgs &, const std::vector<rt::ErasedField> &,
                      const TestLaunch &, const std::vector<kerneltest::StepAdd> &);
  /// runErasedTwoSteps with the adds as given (none, or a count the vector cannot have).
  void (*runTwoStepsWithAddCount)(const rt::ErasedArgs &, const std::vector<rt::ErasedField> &,
                                  int addCount);
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
               o.rows = t.rows;                                                                    \
               o.sharedBytes = t.sharedBytes;                                                      \
               o.region = t.region;                                                                \
               k::runErased(e, o);                                                                 \
             },                                                                                    \
             [](int v) {                                                                           \
               return stencilc_kernels::name##_cuda::variantName(                                  \
                   stencilc_kernels::name##_cuda::kVariants[v]);                                   \
             },                                                                                    \
             [](int v) {                                                                           \
               return stencilc_kernels::name##_cuda::takesRows(                                    \
                   stencilc_kernels::name##_cuda::kVariants[v]);                                   \
             },                                                                                    \
             stencilc_kernels::name##_cuda::kTwoStepLaunch,                                        \
             [](const rt::ErasedArgs &e, const std::vector<rt::ErasedField> &second,               \
                const TestLaunch &t, const std::vector<kerneltest::StepAdd> &adds) {               \
               namespace k = stencilc_kernels::name##_cuda;                                        \
               k::LaunchOptions o;                                                                 \
               o.blockX = t.blockX;                                                                \
               o.blockY = t.blockY;                                                                \
               o.nw = t.nw;                                                                        \
               o.sharedBytes = t.sharedBytes;                                                      \
               o.region = t.region;                                                                \
               std::vector<k::FirstStepAdd> a;                                                     \
               for (const kerneltest::StepAdd &add : adds)                                         \
                 a.push_back({add.field, add.x, add.y, add.z, k::Real(add.value)});                \
               k::runErasedTwoSteps(e, second, o, a.data(), int(a.size()));                        \
             },                                                                                    \
             [](const rt::ErasedArgs &e, const std::vector<rt::ErasedField> &second, int count) {  \
               namespace k = stencilc_kernels::name##_cuda;                                        \
               k::runErasedTwoSteps(e, second, k::LaunchOptions{}, nullptr, count);                \
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

/// The .stencil file named `name`: in dsl-examples/, the test-only stencils of
/// tests/kernels/Inputs/ or the wave example's (examples/wave); empty if none
/// (then a stencil lifted from the legacy corpus, StencilOfKernel.h).
std::string stencilFile(const std::string &name) {
  const std::string root = STENCILC_SOURCE_DIR;
  for (const char *dir : {"/dsl-examples/", "/tests/kernels/Inputs/", "/examples/wave/"}) {
    const std::string path = root + dir + name + ".stencil";
    if (std::filesystem::exists(path))
      return path;
  }
  return "";
}

/// The stencil a kernel was generated from, in the kernel's element type. A
/// kernel of `stencilc gen --adjoint` (stencil NAME_adjoint) gets the adjoint
/// of NAME.stencil, derived as gen derives it (passes/Adjoint.h).
ir::Stencil loadStencil(const rt::KernelInfo &k) {
  const std::string name = k.stencil, suffix = "_adjoint";
  std::string path = stencilFile(name);
  if (!path.empty())
    return eval::loadStencilOfKernel(path, k);
  if (!name.ends_with(suffix))
    return kerneltest::stencilOfKernel(k); // lifted from the legacy corpus
  path = stencilFile(name.substr(0, name.size() - suffix.size()));
  ir::Stencil forward = eval::loadStencilOfKernel(path, k);
  llvm::SourceMgr sourceMgr; // the file parsed above; nothing is reported against it
  DiagnosticEngine diag(sourceMgr, llvm::errs());
  auto linear = linearize(forward, diag);
  auto adjoint = linear ? adjointStencil(forward, *linear, diag) : std::nullopt;
  if (!adjoint)
    throw std::runtime_error(path + ": no adjoint");
  adjoint->elemType = forward.elemType;
  return std::move(*adjoint);
}

/// Whether some output of `k` may overwrite an input (a storage shared in place).
bool canRunInPlace(const rt::KernelInfo &k) {
  return std::any_of(k.fields.begin(), k.fields.end(),
                     [](const rt::KernelFieldInfo &f) { return f.overwrites >= 0; });
}

template <typename Real>
void runAndCompare(const CudaKernel &kernel, const ir::Stencil &stencil, const TestLaunch &launch,
                   rt::GridShape shape, bool inPlace) {
  kerneltest::runAndCompare<Real>(
      kernel.info(), stencil, shape, inPlace,
      [&](const rt::ErasedArgs &args) { kernel.run(args, launch); },
      fmt::format("{} {} block {}x{} nw {} rows {} shared {}", kernel.info().name,
                  kernel.variantName(launch.variant), launch.blockX, launch.blockY, launch.nw,
                  launch.rows, launch.sharedBytes));
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
  // With a budget that holds the shared planes but not the table rows, the marching
  // kernels read the rows the plan left to the backend through the read-only cache
  // (traditional keeps two buffers per plane). A kernel whose plan pins rows in shared
  // memory cannot (PinnedPlanRefusesASmallBudget).
  const bool doubleBuffered = std::string(kernel.variantName(GetParam().variant)) == "traditional";
  if (!info.tables.empty() && !planPinsSharedRows(info))
    launches.push_back(
        {GetParam().variant, 8, 4, 3, (isFloat ? 1024 : 2048) * (doubleBuffered ? 2 : 1)});
  // Several rows per thread (traditional): blocks of 2 and 3 rows of threads that cover 4 and
  // 12 rows, none a divisor of the grid's, so the last block's threads have fewer rows.
  for (int rows : {2, 4})
    if (kernel.takesRows(GetParam().variant))
      launches.push_back({GetParam().variant, 8, rows == 2 ? 2 : 3, 3, 0, std::nullopt, rows});
  const bool inPlaceAllowed = canRunInPlace(info);
  for (const rt::GridShape &shape : shapes)
    for (const TestLaunch &launch : launches)
      for (bool inPlace : {false, true}) {
        if (inPlace && !inPlaceAllowed)
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

/// The default launch, and small blocks that leave partial blocks and z chunks in every box.
std::vector<TestLaunch> regionLaunches(const CudaKernel &kernel, int variant) {
  std::vector<TestLaunch> out = {{variant, 0, 0, 0, 0, std::nullopt},
                                 {variant, 8, 4, 3, 0, std::nullopt}};
  if (kernel.takesRows(variant))
    out.push_back({variant, 8, 2, 3, 0, std::nullopt, 4});
  return out;
}

/// A call of `kernel` with `launch` on a region.
kerneltest::RegionCall regionCall(const CudaKernel &kernel, TestLaunch launch) {
  return [&kernel, launch](const rt::ErasedArgs &args, const std::optional<rt::Box> &region) {
    TestLaunch l = launch;
    l.region = region;
    kernel.run(args, l);
  };
}

std::string launchLabel(const CudaKernel &kernel, const TestLaunch &launch) {
  return fmt::format("{} {} block {}x{} nw {} rows {}", kernel.info().name,
                     kernel.variantName(launch.variant), launch.blockX, launch.blockY, launch.nw,
                     launch.rows);
}

TEST_P(CudaKernelTest, RegionComputesExactlyItsBox) {
  const CudaKernel &kernel = *GetParam().kernel;
  ir::Stencil stencil = loadStencil(kernel.info());
  for (const TestLaunch &launch : regionLaunches(kernel, GetParam().variant)) {
    if (std::string(kernel.info().elemType) == "float")
      kerneltest::checkBoxes<float>(kernel.info(), stencil, regionCall(kernel, launch),
                                    launchLabel(kernel, launch));
    else
      kerneltest::checkBoxes<double>(kernel.info(), stencil, regionCall(kernel, launch),
                                     launchLabel(kernel, launch));
    if (HasFatalFailure())
      return;
  }
}

TEST_P(CudaKernelTest, ShellAndInteriorMakeTheWholeStep) {
  const CudaKernel &kernel = *GetParam().kernel;
  const rt::KernelInfo &info = kernel.info();
  ir::Stencil stencil = loadStencil(info);
  const bool inPlaceAllowed = canRunInPlace(info);
  for (bool inPlace : {false, true})
    for (const TestLaunch &launch : regionLaunches(kernel, GetParam().variant)) {
      if (inPlace && !inPlaceAllowed)
        continue;
      if (std::string(info.elemType) == "float")
        kerneltest::checkSplitStep<float>(info, stencil, regionCall(kernel, launch), inPlace,
                                          launchLabel(kernel, launch));
      else
        kerneltest::checkSplitStep<double>(info, stencil, regionCall(kernel, launch), inPlace,
                                           launchLabel(kernel, launch));
      if (HasFatalFailure())
        return;
    }
}

// Several rows per thread change which thread computes a point, not how: on odd grids whose
// rows are no multiple of a block's, 2 and 4 rows per thread give the one-row step bit for bit
// (all of the storage, halo and padding), out of place and in place.
class CudaRowsPerThread : public CudaKernelTest {};

std::vector<Case> rowCases() {
  std::vector<Case> cases;
  for (const Case &c : allCases())
    if (c.kernel->takesRows(c.variant))
      cases.push_back(c);
  return cases;
}

TEST_P(CudaRowsPerThread, GiveTheOneRowStepBitForBit) {
  const CudaKernel &kernel = *GetParam().kernel;
  const rt::KernelInfo &info = kernel.info();
  const int variant = GetParam().variant;
  const ir::Stencil stencil = loadStencil(info);
  const bool inPlaceAllowed = canRunInPlace(info);
  const std::vector<rt::GridShape> shapes =
      info.dims == 3 ? std::vector<rt::GridShape>{{3, 19, 13, 7, 0}, {3, 11, 23, 5, 0}}
                     : std::vector<rt::GridShape>{{2, 19, 13, 1, 0}, {2, 11, 23, 1, 0}};
  const TestLaunch oneRow{variant, 8, 4, 3, 0, std::nullopt, 1};
  for (const rt::GridShape &shape : shapes)
    for (const TestLaunch &rows : {TestLaunch{variant, 8, 2, 3, 0, std::nullopt, 2},
                                   TestLaunch{variant, 8, 3, 3, 0, std::nullopt, 4}})
      for (bool inPlace : {false, true}) {
        if (inPlace && !inPlaceAllowed)
          continue;
        const std::string label =
            fmt::format("{} on {}x{}x{}", launchLabel(kernel, rows), shape.nx, shape.ny, shape.nz);
        if (std::string(info.elemType) == "float")
          kerneltest::checkSameStep<float>(info, stencil, shape, regionCall(kernel, oneRow),
                                           regionCall(kernel, rows), inPlace, label);
        else
          kerneltest::checkSameStep<double>(info, stencil, shape, regionCall(kernel, oneRow),
                                            regionCall(kernel, rows), inPlace, label);
        if (HasFatalFailure())
          return;
      }
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaKernelTest, testing::ValuesIn(allCases()), caseName);
INSTANTIATE_TEST_SUITE_P(Generated, CudaRowsPerThread, testing::ValuesIn(rowCases()), caseName);

TEST(CudaKernelLaunch, RejectsRegionsOutsideTheExtent) {
  for (const CudaKernel &kernel : allKernels())
    for (int variant = 0; variant < kVariantCount; ++variant) {
      const TestLaunch launch{variant, 0, 0, 0, 0, std::nullopt};
      kerneltest::checkBoxesOutsideRefused(kernel.info(), regionCall(kernel, launch),
                                           launchLabel(kernel, launch));
    }
}

TEST(CudaKernelLaunch, RejectsBlocksLargerThanCompiledFor) {
  const CudaKernel &kernel = allKernels().front();
  const rt::KernelInfo &info = kernel.info();
  rt::GridShape shape{info.dims, 9, 9, info.dims == 3 ? 9 : 1, info.radius + 2};
  rt::KernelData data(info, shape, 4, false);
  EXPECT_THROW(kernel.run(data.args(), TestLaunch{0, 64, 64, 0, 0}), rt::KernelError);
}

TEST(CudaKernelLaunch, RejectsRowsPerThreadNotCompiled) {
  for (const CudaKernel &kernel : allKernels()) {
    const rt::KernelInfo &info = kernel.info();
    rt::GridShape shape{info.dims, 9, 9, info.dims == 3 ? 9 : 1, info.radius + 2};
    rt::KernelData data(info, shape, 4, false);
    for (int variant = 0; variant < kVariantCount; ++variant)
      if (kernel.takesRows(variant))
        try {
          kernel.run(data.args(), TestLaunch{variant, 32, 2, 4, 0, std::nullopt, 3});
          ADD_FAILURE() << info.name << ": 3 rows per thread were accepted";
        } catch (const rt::KernelError &e) {
          EXPECT_NE(std::string(e.what()).find("3 rows per thread"), std::string::npos) << e.what();
        }
  }
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

//===----------------------------------------------------------------------===//
// Temporal blocking
//===----------------------------------------------------------------------===//

/// The kernels whose outputs advance time levels.
std::vector<const CudaKernel *> tileableKernels() {
  std::vector<const CudaKernel *> out;
  for (const CudaKernel &k : allKernels()) {
    const std::vector<const rt::KernelInfo *> cpu = kerneltest::tileableKernels({&k.info()});
    if (!cpu.empty())
      out.push_back(&k);
  }
  return out;
}

class CudaTimeTiled : public testing::TestWithParam<const CudaKernel *> {};

// rt::runTimeTiledBoxes with each box one launch of the CUDA kernel on a region (one stream:
// the tiles of a diagonal one after another), every variant, small blocks that leave partial
// blocks and z chunks in every box: T = 1, 2, 3 and 5 equal single launches bit for bit, and
// those match the reference evaluator (TimeTilingCheck.h).
TEST_P(CudaTimeTiled, EqualsSingleStepsBitForBit) {
  const CudaKernel &kernel = *GetParam();
  const rt::KernelInfo &info = kernel.info();
  const ir::Stencil stencil = loadStencil(info);
  std::vector<kerneltest::BoxLauncher> launchers;
  for (int v = 0; v < kVariantCount; ++v)
    launchers.push_back({kernel.variantName(v), regionCall(kernel, {v, 8, 4, 3, 0, std::nullopt}),
                         rt::TileConcurrency::Serial});
  if (std::string(info.elemType) == "float")
    kerneltest::checkTimeTiling<float>(info, stencil, launchers);
  else
    kerneltest::checkTimeTiling<double>(info, stencil, launchers);
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaTimeTiled, testing::ValuesIn(tileableKernels()),
                         [](const testing::TestParamInfo<const CudaKernel *> &info) {
                           return std::string(info.param->info().name);
                         });

//===----------------------------------------------------------------------===//
// Two steps per launch (3.5D blocking)
//===----------------------------------------------------------------------===//

/// The kernels whose launches can take two steps (kTwoStepLaunch).
std::vector<const CudaKernel *> twoStepKernels() {
  std::vector<const CudaKernel *> out;
  for (const CudaKernel &k : allKernels())
    if (k.twoStepLaunch)
      out.push_back(&k);
  return out;
}

class CudaTwoSteps : public testing::TestWithParam<const CudaKernel *> {};

// runTwoSteps, on the whole extent and on boxes that split it, with small blocks (partial
// blocks and z chunks everywhere) and the default ones, and a source added between the
// steps: three launches equal six single `ro` launches bit for bit (TwoStepCheck.h).
TEST_P(CudaTwoSteps, EqualsSingleStepsBitForBit) {
  const CudaKernel &kernel = *GetParam();
  const rt::KernelInfo &info = kernel.info();
  const ir::Stencil stencil = loadStencil(info);
  constexpr int kRo = 1; // kVariants: gmem, ro, traditional, planes
  ASSERT_STREQ(kernel.variantName(kRo), "ro");
  const kerneltest::BoxLauncher single{"ro", regionCall(kernel, {kRo, 8, 4, 3, 0, std::nullopt}),
                                       rt::TileConcurrency::Serial};
  for (const TestLaunch &launch : {TestLaunch{0, 8, 4, 3, 0, std::nullopt},
                                   TestLaunch{0, 0, 0, 0, 160 * 1024, std::nullopt}}) {
    SCOPED_TRACE(fmt::format("block {}x{} nw {}", launch.blockX, launch.blockY, launch.nw));
    const kerneltest::TwoStepCall twoSteps =
        [&](const rt::ErasedArgs &args, const std::vector<rt::ErasedField> &second,
            const std::optional<rt::Box> &region, const std::vector<kerneltest::StepAdd> &adds) {
          TestLaunch l = launch;
          l.region = region;
          kernel.runTwoSteps(args, second, l, adds);
        };
    if (std::string(info.elemType) == "float")
      kerneltest::checkTwoSteps<float>(info, stencil, single, twoSteps);
    else
      kerneltest::checkTwoSteps<double>(info, stencil, single, twoSteps);
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, CudaTwoSteps, testing::ValuesIn(twoStepKernels()),
                         [](const testing::TestParamInfo<const CudaKernel *> &info) {
                           return std::string(info.param->info().name);
                         });

// What cannot work is refused before anything runs: a kernel of several sweeps per step, a
// storage shared between levels (in place), a missing second output.
TEST(CudaTwoStepsRefused, SplitKernelsSharedStorageAndMissingOutputs) {
  int splits = 0, shared = 0;
  for (const CudaKernel &kernel : allKernels()) {
    const rt::KernelInfo &info = kernel.info();
    if (kerneltest::tileableKernels({&info}).empty())
      continue;
    const bool inPlace = kernel.twoStepLaunch && canRunInPlace(info);
    rt::GridShape shape{info.dims, 13, 9, info.dims == 3 ? 7 : 1, info.radius};
    rt::KernelData data(info, shape, 902, inPlace);
    std::vector<rt::ErasedField> second;
    std::vector<rt::Grid<float>> floats;
    std::vector<rt::Grid<double>> doubles;
    for (size_t f = 0; f < info.fields.size(); ++f)
      if (std::string(info.fields[f].role) == "out") {
        if (std::string(info.elemType) == "float") {
          floats.emplace_back(shape);
          second.push_back(
              {floats.back().origin(), floats.back().lineStride(), floats.back().planeStride()});
        } else {
          doubles.emplace_back(shape);
          second.push_back(
              {doubles.back().origin(), doubles.back().lineStride(), doubles.back().planeStride()});
        }
      }
    auto refusal = [&](const std::vector<rt::ErasedField> &outputs) -> std::string {
      try {
        kernel.runTwoSteps(data.args(), outputs, TestLaunch{}, {});
      } catch (const rt::KernelError &e) {
        return e.what();
      }
      return "";
    };
    if (!kernel.twoStepLaunch) {
      EXPECT_NE(refusal(second).find("no launch of two steps"), std::string::npos)
          << info.name << ": " << refusal(second);
      splits += info.sweeps > 1;
      continue;
    }
    if (inPlace) {
      EXPECT_NE(refusal(second).find("every field needs a storage of its own"), std::string::npos)
          << info.name << ": " << refusal(second);
      ++shared;
    }
    std::vector<rt::ErasedField> missing = second;
    missing.back().origin = nullptr;
    EXPECT_NE(refusal(missing).find("is not set"), std::string::npos) << info.name;
    // A negative count of first-step adds, or a positive one with no array.
    rt::KernelData apart(info, shape, 902, /*inPlace=*/false);
    for (int count : {-1, 2}) {
      std::string why;
      try {
        kernel.runTwoStepsWithAddCount(apart.args(), second, count);
      } catch (const rt::KernelError &e) {
        why = e.what();
      }
      EXPECT_EQ(why,
                std::string(info.name) + ": " + std::to_string(count) + " first-step adds at null")
          << info.name;
    }
  }
  EXPECT_GE(splits, 3);
  EXPECT_GE(shared, 3);
}

TEST(CudaKernelRegistry, HoldsEveryExampleInBothPrecisions) {
  // 7 examples x 2 precisions, plus the forced splits and the wave example's kernels listed in
  // CMakeLists.txt.
  EXPECT_GE(allKernels().size(), 14u);
}

} // namespace
