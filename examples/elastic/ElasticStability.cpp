//===- ElasticStability.cpp -----------------------------------------------===//
#include "ElasticStability.h"

#include "frontend/Frontend.h"
#include "ir/linear/LinearForm.h"
#include "passes/Linearize.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace elastic {

namespace {

using Complex = std::complex<double>;
using Kind = stencilc::ir::Expr::Kind;

/// A coefficient factor's value with the stencil's fields and scalars at `values`.
double valueOf(const stencilc::ir::Stencil &s, const stencilc::ir::Expr &e,
               const std::map<std::string, double> &values) {
  auto lookup = [&](const std::string &name) {
    auto it = values.find(name);
    if (it == values.end())
      throw std::runtime_error("the coupled analysis has no value for '" + name + "'");
    return it->second;
  };
  auto operand = [&](int i) { return valueOf(s, *e.operands[size_t(i)], values); };
  switch (e.kind) {
  case Kind::Number: return e.number;
  case Kind::ScalarRef: return lookup(s.scalars[size_t(e.id)].name);
  case Kind::FieldRef: return lookup(s.fields[size_t(e.id)].name);
  case Kind::Neg: return -operand(0);
  case Kind::Add: return operand(0) + operand(1);
  case Kind::Sub: return operand(0) - operand(1);
  case Kind::Mul: return operand(0) * operand(1);
  case Kind::Div: return operand(0) / operand(1);
  default: break;
  }
  throw std::runtime_error("a coefficient the coupled analysis cannot evaluate");
}

/// The smallest and largest eigenvalue of a Hermitian 3 x 3 matrix, in closed
/// form (the trigonometric solution of its characteristic cubic, whose roots
/// are real).
std::pair<double, double> hermitianEigenvalueRange(const Complex (&a)[3][3]) {
  const double q = (a[0][0].real() + a[1][1].real() + a[2][2].real()) / 3;
  const double off = std::norm(a[0][1]) + std::norm(a[0][2]) + std::norm(a[1][2]);
  const double d0 = a[0][0].real() - q, d1 = a[1][1].real() - q, d2 = a[2][2].real() - q;
  const double p = std::sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2 * off) / 6);
  if (p == 0)
    return {q, q};
  // det(A - qI) / (2 p^3), real for a Hermitian matrix, in [-1, 1] up to rounding.
  const Complex det = d0 * (d1 * d2 - std::norm(a[1][2])) -
                      a[0][1] * (a[1][0] * d2 - a[1][2] * a[2][0]) +
                      a[0][2] * (a[1][0] * a[2][1] - d1 * a[2][0]);
  const double r = std::clamp(det.real() / (2 * p * p * p), -1.0, 1.0);
  const double phi = std::acos(r) / 3;
  return {q + 2 * p * std::cos(phi + 2 * std::numbers::pi / 3), q + 2 * p * std::cos(phi)};
}

/// The wavenumber grid: theta = pi j / kSteps on each axis, j in [-kSteps, kSteps].
constexpr int kSteps = 16;
constexpr int kSpan = 2 * kSteps + 1;

} // namespace

struct CoupledStability::Impl {
  stencilc::ir::Module module;
  stencilc::LinearStencil linear;
  /// One term of A: update `row` reads component `column`'s current level at
  /// offset `offset` (an index into the distinct offsets).
  struct Entry {
    int row, column, offset;
    const stencilc::Term *term;
  };
  std::vector<Entry> entries;
  int components = 0;
  /// e^{i theta.offset} for each wavenumber of the half grid (theta and -theta
  /// give complex-conjugate A, with conjugate eigenvalues) and each offset.
  std::vector<Complex> modes;
  int offsets = 0, wavenumbers = 0;

  bool stable(const std::map<std::string, double> &values) const {
    const stencilc::ir::Stencil &s = module.stencils[0];
    std::vector<double> weights(entries.size());
    for (size_t e = 0; e < entries.size(); ++e) {
      double w = entries[e].term->coef.value();
      for (const stencilc::ir::ExprPtr &f : entries[e].term->factors)
        w *= valueOf(s, *f, values);
      weights[e] = w;
    }
    constexpr double kTolerance = 1e-10; // rounding in A, far below a relative 1e-6 in dt
    for (int n = 0; n < wavenumbers; ++n) {
      Complex a[3][3] = {};
      const Complex *mode = &modes[size_t(n) * size_t(offsets)];
      for (size_t e = 0; e < entries.size(); ++e)
        a[entries[e].row][entries[e].column] += weights[e] * mode[entries[e].offset];
      // A symmetric stencil gives a Hermitian A, whose eigenvalues are real.
      double scale = 0, skew = 0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          scale = std::max(scale, std::abs(a[i][j]));
          skew = std::max(skew, std::abs(a[i][j] - std::conj(a[j][i])));
        }
      if (skew > 1e-12 * scale)
        throw std::runtime_error("the coupled step's symbol is not Hermitian (not a symmetric "
                                 "stencil): the analysis does not apply");
      const auto [lo, hi] = hermitianEigenvalueRange(a);
      if (lo < -2 - kTolerance || hi > 2 + kTolerance)
        return false;
    }
    return true;
  }
};

CoupledStability::CoupledStability(const std::string &path) : impl_(std::make_unique<Impl>()) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path + ": cannot open (set --stencil)");
  std::stringstream text;
  text << in.rdbuf();
  auto module = stencilc::parseModuleFromString(text.str(), path, llvm::errs());
  if (!module || module->stencils.empty())
    throw std::runtime_error(path + ": not a stencil this program was built with");
  impl_->module = std::move(*module);
  const stencilc::ir::Stencil &s = impl_->module.stencils[0];
  llvm::SourceMgr sourceMgr; // the file parsed above; linearize reports nothing for it
  stencilc::DiagnosticEngine diag(sourceMgr, llvm::errs());
  auto linear = stencilc::linearize(s, diag);
  if (!linear)
    throw std::runtime_error(path + ": not a linear update");
  impl_->linear = std::move(*linear);
  const auto &updates = impl_->linear.updates;
  if (updates.size() != 3)
    throw std::runtime_error(path + ": expected three updates (U, V, W)");
  impl_->components = 3;
  // Which component's current or previous level each time field is.
  std::map<int, int> current, previous;
  for (int u = 0; u < 3; ++u) {
    const stencilc::ir::Field &out = s.fields[size_t(updates[size_t(u)].output)];
    if (out.advances < 0 || out.overwrites < 0)
      throw std::runtime_error(path + ": update of " + out.name +
                               " does not advance a level over the one before it");
    current[out.advances] = u;
    previous[out.overwrites] = u;
  }
  std::vector<stencilc::ir::Offset> distinct;
  for (int u = 0; u < 3; ++u) {
    const stencilc::LinearForm &form = updates[size_t(u)];
    if (form.pointwise)
      throw std::runtime_error(path + ": an update has a part without time levels");
    for (const stencilc::Term &t : form.terms) {
      if (auto p = previous.find(t.field); p != previous.end()) {
        // The leapfrog form: B = -I, each update reads its own t - dt level at
        // the point, with coefficient -1 and nothing else.
        const bool leapfrog = p->second == u && t.offset[0] == 0 && t.offset[1] == 0 &&
                              t.offset[2] == 0 && t.factors.empty() && t.coef.isMinusOne();
        if (!leapfrog)
          throw std::runtime_error(path + ": an update reads a t - dt level other than as "
                                          "-X(t - dt) (not the leapfrog form)");
        continue;
      }
      auto c = current.find(t.field);
      if (c == current.end())
        throw std::runtime_error(path + ": an update reads a time field that no update advances");
      size_t o = 0;
      while (o < distinct.size() && distinct[o] != t.offset)
        ++o;
      if (o == distinct.size())
        distinct.push_back(t.offset);
      impl_->entries.push_back({u, c->second, int(o), &t});
    }
  }
  impl_->offsets = int(distinct.size());
  // The first half of the grid and its centre (theta = 0).
  impl_->wavenumbers = kSpan * kSpan * kSpan / 2 + 1;
  impl_->modes.resize(size_t(impl_->wavenumbers) * distinct.size());
  for (int n = 0; n < impl_->wavenumbers; ++n) {
    const double theta[3] = {std::numbers::pi * (n % kSpan - kSteps) / kSteps,
                             std::numbers::pi * (n / kSpan % kSpan - kSteps) / kSteps,
                             std::numbers::pi * (n / (kSpan * kSpan) - kSteps) / kSteps};
    for (size_t o = 0; o < distinct.size(); ++o) {
      const double phase =
          theta[0] * distinct[o][0] + theta[1] * distinct[o][1] + theta[2] * distinct[o][2];
      impl_->modes[size_t(n) * distinct.size() + o] = std::exp(Complex(0, phase));
    }
  }
}

CoupledStability::~CoupledStability() = default;

double CoupledStability::largestStableStep(const Material &m, double h) const {
  std::map<std::string, double> values{
      {"rho", m.rho}, {"lambda", m.lambda()}, {"mu", m.mu()}, {"hx", h}, {"hy", h}, {"hz", h}};
  auto stable = [&](double dt) {
    values["dt"] = dt;
    return impl_->stable(values);
  };
  // Bracket the limit from a Courant number vp dt / h of 1, then bisect.
  double lo = 0, hi = h / m.vp;
  while (stable(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6 * h / m.vp)
      throw std::runtime_error("the coupled step is stable for every dt (not a wave equation)");
  }
  while (hi - lo > 1e-6 * hi)
    (stable(0.5 * (lo + hi)) ? lo : hi) = 0.5 * (lo + hi);
  return lo;
}

} // namespace elastic
