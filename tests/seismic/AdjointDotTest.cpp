//===- AdjointDotTest.cpp - Forward and adjoint propagators are transposes ===//
//
// The dot-product test of an adjoint propagator (as Devito's test_adjoint):
// F maps a source wavelet q (one point, N steps) to the data d = F q the
// receivers record; the adjoint kernels (`stencilc gen --adjoint` of
// examples/wave's .stencil files) run backwards in time from receiver data
// d̂ injected at the receivers, and record Fᵀd̂ at the source. Then
//
//   |⟨F q, d̂⟩ − ⟨q, Fᵀ d̂⟩| / max(|⟨F q, d̂⟩|, |⟨q, Fᵀ d̂⟩|)
//
// must be below 1e-11 in double and 1e-4 in float, for the acoustic FD and
// the ETE-37 step with a sponge, with every CPU variant. This file is built
// twice, with the kernels in double and in float (tests/seismic/CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "frontend/Frontend.h"
#include "seismic/EteFit.h"
#include "seismic/EteStencil.h"

#include "stencilc/Kernel.h"
#include "stencilc/Random.h"
#include "stencilc/ShiftedField.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace rt = stencilc::rt;

namespace {

constexpr int kNx = 20, kNy = 17, kNz = 15, kHalo = 4, kSteps = 30;
using Point = std::array<int, 3>;

/// Everything both directions share: the model's coefficient fields.
template <typename Real> struct Model {
  rt::Grid<Real> c2 = rt::Grid<Real>::make3d(kNx, kNy, kNz, kHalo);
  rt::Grid<Real> damp = rt::Grid<Real>::make3d(kNx, kNy, kNz, kHalo);
  rt::Grid<uint16_t> vidx = rt::Grid<uint16_t>::make3d(kNx, kNy, kNz, kHalo);
  rt::CoefficientTable<Real> table;

  Model() {
    // Courant numbers 0.2..0.45 for the FD step, three velocities for ETE,
    // a damping factor below 1 near some points: nothing symmetric.
    c2.fillRandom(11, Real(0.04), Real(0.2));
    damp.fillRandom(12, Real(0.9), Real(1));
    vidx.fillRandom(13, 0, 3);
    const std::string path =
        std::string(STENCILC_SOURCE_DIR) + "/examples/wave/ete37_sponge.stencil";
    auto buffer = llvm::MemoryBuffer::getFile(path);
    auto module = stencilc::parseModuleFromString((*buffer)->getBuffer(), path, llvm::errs());
    auto points = stencilc::seismic::etePointsForTable(module->stencils.at(0), 0);
    stencilc::seismic::EteFitOptions options;
    options.spacing = 10;
    options.dt = 0.001;
    table = stencilc::seismic::makeCoefficientTable<Real>(stencilc::seismic::fitEte(
        std::get<stencilc::seismic::EtePoints>(points), {1500, 2500, 3500}, options));
  }
};

/// One operator in one direction, stepping its two levels in place.
template <typename Real> class Loop {
public:
  Loop(const std::string &kernel, const Model<Real> &model, rt::Variant variant)
      : model_(model), variant_(variant) {
    info_ = rt::findKernel(kernel);
    if (!info_)
      throw std::logic_error(kernel + " is not linked in");
    ete_ = std::string(info_->stencil).starts_with("ete37");
    a_.fill(Real(0));
    b_.fill(Real(0));
  }

  /// One sweep, then `value` added at `at` in the new level.
  void step(const std::vector<Point> &at, const std::vector<double> &value) {
    rt::Grid<Real> &next = *prev_;
    const std::string p = ete_ ? "p" : "u";
    rt::ErasedArgs args = rt::bindFields(
        *info_, {kNx, kNy, kNz},
        {rt::namedField(p + "_prev", *prev_), rt::namedField(ete_ ? "p_cur" : "u", *cur_),
         rt::namedField(p + "_next", next), rt::namedField("c2", model_.c2),
         rt::namedField("damp", model_.damp), rt::namedField("vidx", model_.vidx)});
    if (ete_)
      args.tables.push_back(rt::erasedTable(rt::view(model_.table)));
    info_->run(args, {variant_});
    for (size_t i = 0; i < at.size(); ++i)
      next(at[i][0], at[i][1], at[i][2]) += Real(value[i]);
    std::swap(cur_, prev_);
  }

  double at(const Point &x) const { return (*cur_)(x[0], x[1], x[2]); }

private:
  const Model<Real> &model_;
  rt::Variant variant_;
  const rt::KernelInfo *info_ = nullptr;
  bool ete_ = false;
  rt::Grid<Real> a_ = rt::Grid<Real>::make3d(kNx, kNy, kNz, kHalo);
  rt::Grid<Real> b_ = rt::Grid<Real>::make3d(kNx, kNy, kNz, kHalo);
  rt::Grid<Real> *cur_ = &a_, *prev_ = &b_;
};

template <typename Real> double mismatch(const std::string &stencil, rt::Variant variant) {
  const Model<Real> model;
  const Point source{7, 8, 5};
  std::vector<Point> receivers;
  for (int i = 2; i < kNx - 2; i += 3)
    receivers.push_back({i, 10, 9});
  receivers.push_back(source); // a receiver on the source too

  rt::RandomEngine rng(2024);
  std::vector<double> q(kSteps);
  std::vector<std::vector<double>> dhat(kSteps, std::vector<double>(receivers.size()));
  for (double &v : q)
    v = rt::uniformReal(rng, -1, 1);
  for (auto &row : dhat)
    for (double &v : row)
      v = rt::uniformReal(rng, -1, 1);

  // ⟨F q, d̂⟩: forward from q, recording after every step.
  double forward = 0;
  Loop<Real> f(stencil, model, variant);
  for (int n = 0; n < kSteps; ++n) {
    f.step({source}, {q[size_t(n)]});
    for (size_t r = 0; r < receivers.size(); ++r)
      forward += f.at(receivers[r]) * dhat[size_t(n)][r];
  }
  // ⟨q, Fᵀ d̂⟩: the adjoint backwards from d̂, injected at the receivers.
  double adjoint = 0;
  Loop<Real> a(stencil + "_adjoint", model, variant);
  for (int n = kSteps - 1; n >= 0; --n) {
    a.step(receivers, dhat[size_t(n)]);
    adjoint += q[size_t(n)] * a.at(source);
  }
  EXPECT_GT(std::abs(forward), 1e-8) << "the receivers recorded nothing";
  return std::abs(forward - adjoint) / std::max(std::abs(forward), std::abs(adjoint));
}

double bound(const rt::KernelInfo &k) { return std::string(k.elemType) == "double" ? 1e-11 : 1e-4; }

template <typename Real> void checkAll(const std::string &stencil) {
  const rt::KernelInfo *k = rt::findKernel(stencil);
  ASSERT_TRUE(k);
  for (rt::Variant v : {rt::Variant::Naive, rt::Variant::Blocked, rt::Variant::Planes}) {
    const double m = mismatch<Real>(stencil, v);
    EXPECT_LT(m, bound(*k)) << stencil << " " << rt::variantName(v) << " in " << k->elemType;
    std::printf("%s %s (%s): relative mismatch %.3g\n", stencil.c_str(), rt::variantName(v),
                k->elemType, m);
  }
}

void check(const std::string &stencil) {
  const rt::KernelInfo *k = rt::findKernel(stencil);
  ASSERT_TRUE(k) << stencil;
  if (std::string(k->elemType) == "double")
    checkAll<double>(stencil);
  else
    checkAll<float>(stencil);
}

TEST(AdjointPropagation, AcousticFd8DotTest) { check("acoustic8_sponge"); }
TEST(AdjointPropagation, Ete37DotTest) { check("ete37_sponge"); }

} // namespace
