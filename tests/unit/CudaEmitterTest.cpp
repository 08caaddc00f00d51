//===- CudaEmitterTest.cpp - Structure of the generated CUDA kernels -------===//
//
// What the emitter must produce whatever the numbers: the four variants per
// sweep, `=` in the first sweep and `+=` after it, register queues and
// partial sums of the right length, table rows placed as the decomposition
// says; and the ptxas report parser. That the kernels compute the right
// values is tests/cuda's job (through the emulator).
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "backends/cuda/CudaEmitter.h"
#include "backends/cuda/ResourceUsage.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <regex>

using namespace stencilc;

namespace {

std::string example(const std::string &name) {
  return stencilc::testing::readText(std::string(STENCILC_SOURCE_DIR) + "/dsl-examples/" + name +
                                     ".stencil");
}

std::string cudaSource(const CompiledStencil &c) {
  for (const backend::GeneratedFile &f : backend::emitCudaKernel(c, {}))
    if (f.name.size() > 3 && f.name.substr(f.name.size() - 3) == ".cu")
      return f.text;
  return "";
}

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

TEST(CudaEmitter, WritesTheFileNamesTheBuildExpects) {
  auto ex = stencilc::testing::compileText(example("ete37"));
  std::vector<backend::GeneratedFile> files = backend::emitCudaKernel(ex.only(), {});
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].name, "ete37_cuda.h");
  EXPECT_EQ(files[1].name, "ete37.cu");
  EXPECT_NE(files[0].text.find("namespace stencilc_kernels::ete37_cuda"), std::string::npos);
  EXPECT_NE(files[1].text.find("#include \"ete37_cuda.h\""), std::string::npos);
}

TEST(CudaEmitter, EveryVariantOfEverySweep) {
  PipelineOptions split;
  split.forceSplit = 3;
  auto ex = stencilc::testing::compileText(example("ete73"), false, split);
  std::string cu = cudaSource(ex.only());
  for (int sweep = 0; sweep < 3; ++sweep)
    for (const char *variant : {"gmem", "ro", "traditional", "planes"})
      EXPECT_NE(cu.find("sweep" + std::to_string(sweep) + "_" + variant + "("), std::string::npos)
          << sweep << " " << variant;
  // The first sweep writes the output, later ones add to it.
  EXPECT_GT(count(cu, "p_next_pt[0] = p_next_value;"), 0);
  EXPECT_GT(count(cu, "p_next_pt[0] += p_next_value;"), 0);
  // Per sweep a launcher and its call, and traditional's launcher, a template on the rows per
  // thread, called once for each count (1, 2, 4).
  for (int sweep = 0; sweep < 3; ++sweep) {
    EXPECT_EQ(count(cu, fmt::format("void launchSweep{}(", sweep)), 1);
    EXPECT_EQ(count(cu, fmt::format("launchSweep{}(a, l);", sweep)), 1);
    EXPECT_EQ(count(cu, fmt::format("template <int kRows> void launchSweep{}Traditional(", sweep)),
              1);
    for (int rows : {1, 2, 4})
      EXPECT_EQ(count(cu, fmt::format("launchSweep{}Traditional<{}>(a, l);", sweep, rows)), 1);
  }
}

TEST(CudaEmitter, QueuesFollowTheStencilsExtentInZ) {
  auto ex = stencilc::testing::compileText(example("ete73"));
  std::string cu = cudaSource(ex.only());
  // Radius 4 in z: nine partial sums per output in planes, and a nine-plane queue for the
  // centre column in traditional; the (4, 0) column holds planes z-4 .. z+4 as well.
  EXPECT_NE(cu.find("constexpr int kDzMin = -4, kDzMax = 4;"), std::string::npos);
  EXPECT_NE(cu.find("Real p_next_acc[kDzMax - kDzMin + 1] = {};"), std::string::npos);
  EXPECT_NE(cu.find("Real p_cur_q_0_0[kRows][9] = {};"), std::string::npos);
  EXPECT_NE(cu.find("Real p_cur_q_p4_0[kRows][9] = {};"), std::string::npos);
  // ete73 reads 17 (dx, dy) columns off the current plane.
  EXPECT_EQ(count(cu, "shiftIn(p_cur_q_"), 17);
}

TEST(CudaEmitter, TableRowsGoWhereTheDecompositionPutsThem) {
  auto ex = stencilc::testing::compileText(example("ete37"));
  // Rows left to the backend are staged only when kStageAuto says they fit.
  std::string autoCu = cudaSource(ex.only());
  EXPECT_NE(autoCu.find("if (kStageAuto) {"), std::string::npos);
  EXPECT_NE(autoCu.find("(kStageAuto ? C_vidx_s["), std::string::npos);
  CompiledStencil &c = ex.compiled.at(0);
  SubStencil &sweep = c.decomposition.sweeps[0];
  // Alternate the groups between shared memory and the read-only cache.
  sweep.tableSpace.assign(1, {});
  for (size_t i = 0; i < sweep.groups[0].size(); ++i)
    sweep.tableSpace[0].push_back(i % 2 ? TableSpace::ReadOnly : TableSpace::Shared);
  // The sweep plan places the rows as the decomposition says: plan again.
  c.sweepPlan = planSweeps(*c.stencil, c.linear, c.decomposition, PlanTarget{}, 0);
  c.cudaKernels = kernel::lowerToKernels(c, kernel::Target::Cuda);
  std::string cu = cudaSource(c);
  EXPECT_EQ(cu.find("kStageAuto ?"), std::string::npos) << "no row was left to the backend";
  EXPECT_GT(count(cu, "stageRow(C_staged"), 0);
  EXPECT_NE(cu.find("C_vidx_s["), std::string::npos);
  EXPECT_NE(cu.find("__ldg(&C_vidx["), std::string::npos);
}

TEST(CudaEmitter, SharedFootprintPerSweep) {
  auto ex = stencilc::testing::compileText(example("ete37"));
  std::vector<backend::CudaSharedFootprint> f = backend::cudaSharedFootprints(ex.only());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].planesPlanes, 1);
  EXPECT_EQ(f[0].planesRx, 4);
  EXPECT_EQ(f[0].traditionalPlanes, 1);
  EXPECT_EQ(f[0].stagedRows + f[0].autoRows, 11); // the 11 coefficient classes of ete37
}

TEST(PtxasReport, ReadsRegistersAndSpillsOfEachSweepKernel) {
  const std::string log = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_ZN16stencilc_kernels14ete73_f64_cuda45_GLOBAL__N__be10a50f_12_ete73_f64_cu_81f2511e13sweep0_planesILb0EEEvNS0_4ArgsEi' for 'sm_90'
ptxas info    : Function properties for _ZN16stencilc_kernels14ete73_f64_cuda45_GLOBAL__N__be10a50f_12_ete73_f64_cu_81f2511e13sweep0_planesILb0EEEvNS0_4ArgsEi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 59 registers, used 1 barriers
ptxas info    : Compiling entry function '_ZN16stencilc_kernels14ete73_f64_cuda45_GLOBAL__N__be10a50f_12_ete73_f64_cu_81f2511e18sweep2_traditionalENS0_4ArgsEi' for 'sm_80'
ptxas info    : Function properties for _ZN16stencilc_kernels14ete73_f64_cuda45_GLOBAL__N__be10a50f_12_ete73_f64_cu_81f2511e18sweep2_traditionalENS0_4ArgsEi
    696 bytes stack frame, 1124 bytes spill stores, 692 bytes spill loads
ptxas info    : Used 255 registers, used 1 barriers, 696 bytes cumulative stack size, 64 bytes smem
ptxas info    : Compiling entry function '_Z11unrelatedv' for 'sm_80'
ptxas info    : Used 4 registers
)";
  std::vector<backend::KernelResources> rows = backend::parsePtxasOutput(log);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].variant, "planes/ro-table");
  EXPECT_EQ(rows[0].arch, "sm_90");
  EXPECT_EQ(rows[0].registers, 59);
  EXPECT_EQ(rows[0].spillStores, 0);
  EXPECT_EQ(rows[1].variant, "traditional");
  EXPECT_EQ(rows[1].sweep, 2);
  EXPECT_EQ(rows[1].registers, 255);
  EXPECT_EQ(rows[1].spillStores, 1124);
  EXPECT_EQ(rows[1].spillLoads, 692);
  EXPECT_EQ(rows[1].stackBytes, 696);
  EXPECT_EQ(rows[1].sharedBytes, 64);
}

// The PTX instruction count of `analyze --ptxas`: the instructions of each sweep kernel's
// body (predicated ones too), not its directives, declarations, labels or other functions.
TEST(ResourceUsage, CountsPtxInstructionsPerKernel) {
  const std::string ptx = R"(//
.visible .func (.param .b32 func_retval0) _Z6helperf(
	.param .b32 _Z6helperf_param_0
)
{
	mov.b32 	%r1, 0;
	ret;
}
.entry _ZN16stencilc_kernels8tti_cuda11sweep0_gmemENS0_4ArgsE(
	.param .align 8 .b8 _ZN16stencilc_kernels8tti_cuda11sweep0_gmemENS0_4ArgsE_param_0[64]
)
.maxntid 256, 1, 1
{
	.reg .pred 	%p<3>;
	.reg .f32 	%f<8>;

	ld.param.u64 	%rd1, [_ZN16stencilc_kernels8tti_cuda11sweep0_gmemENS0_4ArgsE_param_0];
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;
	fma.rn.f32 	%f3, %f1, %f2, %f1;
$L__BB0_2:
	ret;
}
.visible .entry _ZN16stencilc_kernels8tti_cuda18sweep1_traditionalILb0EEEvNS0_4ArgsE(
	.param .align 8 .b8 p[64]
)
{
	bar.sync 	0;
	ret;
}
.visible .entry _ZN16stencilc_kernels8tti_cuda18sweep1_traditionalILb1ELi4EEEvNS0_4ArgsE(
	.param .align 8 .b8 p[64]
)
{
	ret;
}
)";
  std::vector<backend::KernelResources> rows = backend::countPtxInstructions(ptx);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].sweep, 0);
  EXPECT_EQ(rows[0].variant, "gmem");
  EXPECT_EQ(rows[0].ptxInstructions, 5);
  EXPECT_EQ(rows[1].sweep, 1);
  EXPECT_EQ(rows[1].variant, "traditional/ro-table");
  EXPECT_EQ(rows[1].rows, 1);
  EXPECT_EQ(rows[1].ptxInstructions, 2);
  EXPECT_EQ(rows[2].variant, "traditional"); // <true, 4>: staged rows, 4 rows per thread
  EXPECT_EQ(rows[2].rows, 4);
  EXPECT_EQ(rows[2].ptxInstructions, 1);
}

} // namespace
