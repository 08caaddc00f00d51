//===- EteFitTest.cpp - The least-squares ETE coefficient fit --------------===//
//
// The fitted 37- and 73-point operators of dsl-examples/ must reproduce
// cos(vΔt|k|) inside the band on wavenumbers the fit never sampled, keep a
// constant field constant under one step of the reference evaluator, and be
// stable; the table file must hold the runtime's row-major layout.
//
//===----------------------------------------------------------------------===//
#include "seismic/EteFit.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"
#include "seismic/EteStencil.h"

#include "stencilc/io/Npy.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

using namespace stencilc;

namespace {

ir::Module parseExample(const std::string &name) {
  std::filesystem::path path = std::filesystem::path(STENCILC_SOURCE_DIR) / "dsl-examples" / name;
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  auto module = parseModuleFromString(text.str(), path.string(), llvm::errs());
  if (!module)
    ADD_FAILURE() << "cannot parse " << path;
  return module ? std::move(*module) : ir::Module{};
}

seismic::EtePoints pointsOf(const ir::Stencil &stencil) {
  auto points = seismic::etePointsForTable(stencil, 0);
  EXPECT_TRUE(std::holds_alternative<seismic::EtePoints>(points));
  return std::get<seismic::EtePoints>(points);
}

// A 10 m grid with Δt = 1 ms: the Courant number vΔt/h is 0.15 to 0.45 over
// the velocities of a sedimentary model.
seismic::EteFitOptions typicalOptions() {
  seismic::EteFitOptions options;
  options.spacing = 10;
  options.dt = 1e-3;
  options.band = 0.6;
  return options;
}
const std::vector<double> kVelocities{1500, 2250, 3000, 3750, 4500};

double worstMisfitOffSamples(const seismic::EtePoints &points, const seismic::EteFit &fit,
                             const seismic::EteFitOptions &options) {
  double worst = 0;
  for (size_t v = 0; v < kVelocities.size(); ++v)
    worst = std::max(worst, seismic::eteMisfitAtRandomWavenumbers(
                                points, fit.coefficients[v], kVelocities[v], options, 2000, 7 + v));
  return worst;
}

TEST(EteFitTest, PointSetsOfTheExamples) {
  ir::Module ete37 = parseExample("ete37.stencil");
  ir::Module ete73 = parseExample("ete73.stencil");
  seismic::EtePoints p37 = pointsOf(ete37.stencils.at(0));
  seismic::EtePoints p73 = pointsOf(ete73.stencils.at(0));
  EXPECT_EQ(p37.offsets.size(), 37u);
  EXPECT_EQ(p37.numClasses, 11);
  EXPECT_EQ(p73.offsets.size(), 73u);
  EXPECT_EQ(p73.numClasses, 17);
}

TEST(EteFitTest, Ete37ReproducesTheCosineInsideTheBand) {
  ir::Module module = parseExample("ete37.stencil");
  seismic::EtePoints points = pointsOf(module.stencils.at(0));
  seismic::EteFitOptions options = typicalOptions();
  seismic::EteFit fit = seismic::fitEte(points, kVelocities, options);
  ASSERT_EQ(fit.coefficients.size(), kVelocities.size());
  for (size_t v = 0; v < kVelocities.size(); ++v) {
    EXPECT_LT(fit.maxMisfit[v], 2e-3) << "v = " << kVelocities[v];
    EXPECT_LE(fit.maxAmplification[v], 1 + 1e-9) << "v = " << kVelocities[v];
  }
  EXPECT_LT(worstMisfitOffSamples(points, fit, options), 2e-3);
}

TEST(EteFitTest, Ete73FitsBetterThanEte37) {
  ir::Module m37 = parseExample("ete37.stencil");
  ir::Module m73 = parseExample("ete73.stencil");
  seismic::EtePoints p37 = pointsOf(m37.stencils.at(0));
  seismic::EtePoints p73 = pointsOf(m73.stencils.at(0));
  seismic::EteFitOptions options = typicalOptions();
  seismic::EteFit fit37 = seismic::fitEte(p37, kVelocities, options);
  seismic::EteFit fit73 = seismic::fitEte(p73, kVelocities, options);
  for (size_t v = 0; v < kVelocities.size(); ++v) {
    EXPECT_LT(fit73.maxMisfit[v], 1e-3) << "v = " << kVelocities[v];
    EXPECT_LT(fit73.rmsMisfit[v], fit37.rmsMisfit[v]) << "v = " << kVelocities[v];
    EXPECT_LE(fit73.maxAmplification[v], 1 + 1e-9) << "v = " << kVelocities[v];
  }
  EXPECT_LT(worstMisfitOffSamples(p73, fit73, options), 1e-3);
}

TEST(EteFitTest, ZeroWavenumberIsExact) {
  ir::Module module = parseExample("ete37.stencil");
  seismic::EtePoints points = pointsOf(module.stencils.at(0));
  seismic::EteFit fit = seismic::fitEte(points, kVelocities, typicalOptions());
  for (const auto &coefficients : fit.coefficients) {
    double sum = 0;
    for (size_t j = 0; j < points.offsets.size(); ++j)
      sum += coefficients[points.classOf[j]];
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
}

TEST(EteFitTest, ConstantFieldStaysConstantUnderOneStep) {
  ir::Module module = parseExample("ete37.stencil");
  const ir::Stencil &stencil = module.stencils.at(0);
  seismic::EteFit fit = seismic::fitEte(pointsOf(stencil), kVelocities, typicalOptions());
  eval::EvalSizes sizes;
  sizes.nx = 11, sizes.ny = 9, sizes.nz = 10;
  sizes.tableColumns = int(kVelocities.size());
  eval::EvalData data = eval::makeRandomEvalData(stencil, sizes, 1234); // random velocity index
  const int prev = stencil.findField("p_prev"), cur = stencil.findField("p_cur");
  const int next = stencil.findField("p_next");
  data.grids[prev]->fill(1.5);
  data.grids[cur]->fill(1.5);
  *data.tables[0] = seismic::makeCoefficientTable<double>(fit);
  eval::evaluateReference(stencil, data.bindings());
  data.grids[next]->forEachInteriorPoint([&](int i, int j, int k) {
    ASSERT_NEAR((*data.grids[next])(i, j, k), 1.5, 1e-12) << i << "," << j << "," << k;
  });
}

TEST(EteFitTest, OneRowPerPointGivesTheSameOperator) {
  // Without `under`, every point is its own unknown; the symmetric fit is
  // one of the candidates, so the per-point fit is at least as good.
  ir::Module classes = parseExample("ete37.stencil");
  auto perPoint = parseModuleFromString(R"(stencil plain {
    field p_prev : time; field p_cur : time; field p_next : out; field vidx : index uint16;
    points S = axes(4) | diagonals(1);
    table C[points(S)];
    p_next = 2 * sum(d in S, C[d.point][vidx] * p_cur[d]) - p_prev;
  })",
                                        "plain.stencil", llvm::errs());
  ASSERT_TRUE(perPoint);
  seismic::EtePoints symmetric = pointsOf(classes.stencils.at(0));
  seismic::EtePoints plain = pointsOf(perPoint->stencils.at(0));
  ASSERT_EQ(plain.numClasses, 37);
  seismic::EteFitOptions options = typicalOptions();
  seismic::EteFit a = seismic::fitEte(symmetric, {3000}, options);
  seismic::EteFit b = seismic::fitEte(plain, {3000}, options);
  EXPECT_LE(b.rmsMisfit[0], a.rmsMisfit[0] * (1 + 1e-6));
  EXPECT_LT(b.maxMisfit[0], 2e-3);
}

TEST(EteFitTest, TooLargeTimeStepIsReportedUnstable) {
  // vΔt/h = 1.5 is far beyond what a radius-4 operator can represent: the
  // fitted response must leave [-1, 1] somewhere in the Brillouin zone.
  ir::Module module = parseExample("ete37.stencil");
  seismic::EteFitOptions options = typicalOptions();
  options.dt = 5e-3;
  seismic::EteFit fit = seismic::fitEte(pointsOf(module.stencils.at(0)), {3000}, options);
  EXPECT_GT(fit.maxAmplification[0], 1.0);
}

TEST(EteFitTest, RejectsBadInput) {
  ir::Module module = parseExample("ete37.stencil");
  seismic::EtePoints points = pointsOf(module.stencils.at(0));
  seismic::EteFitOptions options = typicalOptions();
  EXPECT_THROW(seismic::fitEte(points, {}, options), std::invalid_argument);
  EXPECT_THROW(seismic::fitEte(points, {-1.0}, options), std::invalid_argument);
  options.band = 0;
  EXPECT_THROW(seismic::fitEte(points, {3000}, options), std::invalid_argument);
  options = typicalOptions();
  points.classOf[0] = points.numClasses;
  EXPECT_THROW(seismic::fitEte(points, {3000}, options), std::invalid_argument);
}

TEST(EteFitTest, LiteralTableIsNotFittable) {
  auto module = parseModuleFromString(R"(stencil lit {
    field u : time; field o : out; field vidx : index uint8;
    table C[2];
    o = C[0][vidx] * u + C[1][vidx] * u[1, 0, 0];
  })",
                                      "lit.stencil", llvm::errs());
  ASSERT_TRUE(module);
  auto points = seismic::etePointsForTable(module->stencils.at(0), 0);
  ASSERT_TRUE(std::holds_alternative<std::string>(points));
  EXPECT_NE(std::get<std::string>(points).find("literal row count"), std::string::npos);
}

TEST(EteFitTest, TableFileIsRowMajorRowsByVelocities) {
  ir::Module module = parseExample("ete37.stencil");
  seismic::EteFit fit =
      seismic::fitEte(pointsOf(module.stencils.at(0)), {2000, 4000, 5000}, typicalOptions());
  auto path = std::filesystem::temp_directory_path() / "EteFitTest-table.npy";
  seismic::writeTableNpy(fit, ir::ElemType::Double, path.string());
  std::ifstream in(path, std::ios::binary);
  rt::NpyHeader header = rt::parseNpyHeader(in);
  EXPECT_EQ(header.descr, "<f8");
  EXPECT_EQ(header.shape, (std::vector<int64_t>{11, 3}));
  std::vector<double> values(33);
  in.read(reinterpret_cast<char *>(values.data()), std::streamsize(values.size() * 8));
  ASSERT_TRUE(in);
  for (int r = 0; r < 11; ++r)
    for (int v = 0; v < 3; ++v)
      EXPECT_EQ(values[r * 3 + v], fit.coefficients[v][r]);
  std::filesystem::remove(path);
}

} // namespace
