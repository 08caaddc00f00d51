//===- CpuEmitterTest.cpp - The CPU printer follows the sweep plan ---------===//
//
// The CPU printer decides nothing: which functions it writes for a sweep
// follows from the sweep plan (SweepPlan.h). These tests read the functions
// a generated file defines and the variant dispatch of run(), and check
// them against the plan of each shipped example, split and unsplit. That
// the kernels compute the right values is tests/kernels' job.
//
//===----------------------------------------------------------------------===//
#include "PlanTestSupport.h"

#include "backends/cpu/CpuEmitter.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>

using namespace stencilc;
using stencilc::testing::compileExample;

namespace {

/// The names of the functions `source` defines (`inline void name(` or `void name(`).
std::set<std::string> definedFunctions(const std::string &source) {
  static const std::regex definition(R"(^(?:inline )?void (\w+)\()", std::regex::multiline);
  std::set<std::string> names;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), definition);
       it != std::sregex_iterator(); ++it)
    names.insert((*it)[1]);
  return names;
}

std::string cppSource(const CompiledStencil &c, std::vector<std::string> *fileNames = nullptr) {
  std::string source;
  for (const backend::GeneratedFile &f : backend::emitCpuKernel(c, {})) {
    if (fileNames)
      fileNames->push_back(f.name);
    if (f.name.size() > 4 && f.name.substr(f.name.size() - 4) == ".cpp")
      source = f.text;
  }
  return source;
}

std::string planeSuffix(int dz) {
  return dz < 0 ? "m" + std::to_string(-dz) : "p" + std::to_string(dz);
}

/// The functions the printer must define for `c`, derived from its sweep plan alone.
std::set<std::string> expectedFunctions(const CompiledStencil &c) {
  const CpuSchedule &cpu = c.sweepPlan.cpu;
  std::set<std::string> names = {"run", "rotate", "checkArgs", "runErased"};
  for (size_t sweep = 0; sweep < cpu.sweeps.size(); ++sweep) {
    const CpuSweepPlan &p = cpu.sweeps[sweep];
    const std::string prefix = "sweep" + std::to_string(sweep) + "_";
    for (const char *variant : {"row", "naive", "blocked", "planes"})
      names.insert(prefix + variant);
    if (cpu.outputPlanesPerLoop > 1) {
      names.insert(prefix + "rows");
      names.insert(prefix + "rows" + std::to_string(cpu.outputPlanesPerLoop));
    }
    if (!p.accumulates())
      continue;
    for (int dz : p.accumulatedPlanes)
      names.insert(prefix + "plane_" + planeSuffix(dz));
    if (p.accumulatedPlanes.size() > 1)
      names.insert(prefix + "scatter");
    if (!p.stagedTables.empty())
      names.insert(prefix + "stage");
    names.insert(prefix + "finish");
  }
  return names;
}

void checkFollowsPlan(const std::string &example, const PipelineOptions &options = {}) {
  auto ex = compileExample(example, false, options);
  const CompiledStencil &c = ex.only();
  std::vector<std::string> files;
  const std::string source = cppSource(c, &files);
  EXPECT_EQ(files, (std::vector<std::string>{example + ".h", example + ".cpp"}));
  EXPECT_EQ(definedFunctions(source), expectedFunctions(c))
      << example << " with " << c.sweepPlan.cpu.sweeps.size() << " sweeps";
}

TEST(CpuEmitter, FunctionsFollowTheSweepPlanOfEveryExample) {
  for (const char *example :
       {"ete37", "ete73", "acoustic_iso8", "laplacian7", "heat2d", "tti", "lwc_elastic"})
    checkFollowsPlan(example);
}

TEST(CpuEmitter, FunctionsFollowSplitPlansAndOutputPlanesPerLoop) {
  PipelineOptions split;
  split.forceSplit = 3;
  checkFollowsPlan("ete73", split);
  split.forceSplit = 2;
  split.outputPlanesPerLoop = 4;
  checkFollowsPlan("lwc_elastic", split);
  PipelineOptions one;
  one.outputPlanesPerLoop = 1;
  checkFollowsPlan("acoustic_iso8", one);
}

TEST(CpuEmitter, RunDispatchesEverySweepOfEveryVariantWithThePlansTiles) {
  PipelineOptions options;
  options.forceSplit = 2;
  auto ex = compileExample("ete37", false, options);
  const CompiledStencil &c = ex.only();
  const std::string source = cppSource(c);
  const CpuSchedule &cpu = c.sweepPlan.cpu;
  for (const char *variant : {"naive", "blocked", "planes"}) {
    // Each sweep's function of the variant is called once from run(), in sweep order.
    size_t previous = 0;
    for (size_t sweep = 0; sweep < cpu.sweeps.size(); ++sweep) {
      const std::regex call("\\n    sweep" + std::to_string(sweep) + "_" + variant +
                            R"(\(a, t, box(, bx, by, bz)?\);)");
      std::smatch m;
      std::string rest = source.substr(previous);
      ASSERT_TRUE(std::regex_search(rest, m, call)) << variant << " sweep " << sweep;
      previous += m.position(0) + m.length(0);
    }
  }
  // The footprint the variant (Auto) and blocked's height come from is the plan's, and the
  // default tiles are the plan's: blocked's height from the layer condition on it (the
  // plan's height where the L2 is unknown), whole rows unless asked.
  const std::regex footprint(
      R"(\n  constexpr rt::LayerFootprint kFootprint\{(\d+), (\d+), (\d+), (\d+), (\d+)\};\n)"
      R"(  switch \(rt::chooseVariant\(options.variant, kFootprint, nx, ny\)\) \{\n)");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(source, m, footprint));
  const rt::LayerFootprint &f = cpu.blockedFootprint;
  EXPECT_EQ(std::stoi(m[1]), f.reachX);
  EXPECT_EQ(std::stoi(m[2]), f.reachY);
  EXPECT_EQ(std::stoi(m[3]), f.reachZ);
  EXPECT_EQ(std::stoi(m[4]), f.planeFields);
  EXPECT_EQ(std::stoi(m[5]), f.elementBytes);
  const std::regex blockedTiles(
      R"(const int bx = rt::chooseRowBlock\(options.blockX, nx\);\n)"
      R"((\s+//.*\n)*\s+const int by = rt::chooseLayerBlock\(options.blockY, kFootprint, bx, (\d+), ny\);\n)"
      R"(\s+const int bz = rt::chooseBlock\(options.blockZ, (\d+), nz\);\n\s+sweep0_blocked)");
  ASSERT_TRUE(std::regex_search(source, m, blockedTiles));
  EXPECT_EQ(std::stoi(m[2]), cpu.blockedTile.y);
  EXPECT_EQ(std::stoi(m[3]), cpu.blockedTile.z);
  const std::regex planesTiles(
      R"(rt::chooseBlock\(options.blockY, (\d+), ny\);\n\s+const int bz = rt::chooseBlock\(options.blockZ, (\d+), nz\);\n\s+sweep0_planes)");
  ASSERT_TRUE(std::regex_search(source, m, planesTiles));
  EXPECT_EQ(std::stoi(m[1]), cpu.planesTile.y);
  EXPECT_EQ(std::stoi(m[2]), cpu.planesTile.z);
}

} // namespace
