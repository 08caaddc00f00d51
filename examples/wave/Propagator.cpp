//===- Propagator.cpp - One time step of the acoustic wave equation --------===//
#include "Propagator.h"

#include "analysis/Stability.h"
#include "frontend/Frontend.h"
#include "ir/linear/LinearForm.h"
#include "seismic/EteStencil.h"

#include "stencilc/ShiftedField.h"

#include "passes/Linearize.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace wave {

const char *operatorName(Operator op) { return op == Operator::Ete37 ? "ete37" : "fd8"; }

Propagator::Propagator(const rt::GridShape &shape, Direction direction)
    : levelA_(shape), levelB_(shape), current_(&levelA_), previous_(&levelB_),
      direction_(direction) {}

void Propagator::reset() {
  levelA_.fill(0.0f);
  levelB_.fill(0.0f);
}

void Propagator::step(const std::vector<Injection> &injections, const rt::RunOptions &options,
                      const Stepper &stepper) {
  // The kernels run in place: the new level overwrites the oldest.
  rt::Grid<float> &next = *previous_;
  const rt::ErasedArgs a = args(next);
  if (stepper)
    stepper(kernel(), a, options);
  else
    kernel().run(a, options);
  for (const Injection &s : injections)
    next(s.i, s.j, s.k) += float(s.value);
  std::swap(current_, previous_);
}

void Propagator::stepTimeTiled(int count, const rt::TimeTiling &tiling,
                               const std::function<std::vector<Injection>(int step)> &injectionsAt,
                               const OnBox &onBox, const rt::RunOptions &options,
                               const StepRunner &runner) {
  const rt::KernelInfo &k = kernel();
  int out = -1;
  for (size_t f = 0; f < k.fields.size(); ++f)
    if (std::string(k.fields[f].role) == "out")
      out = int(f);
  if (out < 0)
    throw std::logic_error(std::string(k.name) + " has no output");
  std::vector<std::vector<Injection>> injections(size_t(std::max(count, 0)));
  const rt::Grid<float> &grid = *current_;
  // A runner's boxes may reach into the halo (copies of a neighbour's points).
  const int h = runner ? grid.halo() : 0, hz = runner ? grid.haloZ() : 0;
  for (int s = 0; s < count; ++s) {
    injections[size_t(s)] = injectionsAt(s);
    for (const Injection &i : injections[size_t(s)])
      if (i.i < -h || i.i >= grid.nx() + h || i.j < -h || i.j >= grid.ny() + h || i.k < -hz ||
          i.k >= grid.nz() + hz)
        throw std::invalid_argument("time tiling: an injection at (" + std::to_string(i.i) + ", " +
                                    std::to_string(i.j) + ", " + std::to_string(i.k) +
                                    ") lies outside the " +
                                    (runner ? "grid and its halo" : "grid's interior"));
  }
  // The kernels run in place: the first new level overwrites previous().
  rt::ErasedArgs a = args(*previous_);
  const rt::AfterBox afterBox = [&](int step, const rt::Box &box, const rt::ErasedArgs &stepArgs) {
    const rt::ErasedField &f = stepArgs.fields[size_t(out)];
    const rt::FieldView<float> next{static_cast<float *>(f.origin), f.line, f.plane};
    for (const Injection &i : injections[size_t(step)])
      if (i.i >= box.x0 && i.i < box.x1 && i.j >= box.y0 && i.j < box.y1 && i.k >= box.z0 &&
          i.k < box.z1)
        next.row(i.j, i.k)[i.i] += float(i.value);
    if (onBox)
      onBox(step, box, rt::readOnlyView(next));
  };
  if (runner)
    runner(a, count, afterBox);
  else
    rt::runTimeTiled(k, a, count, tiling, options, afterBox);
  // As after `count` calls of step(): the levels swapped once a step.
  if (count % 2)
    std::swap(current_, previous_);
}

namespace {

rt::Extent extentOf(const rt::Grid<float> &g) { return {g.nx(), g.ny(), g.nz()}; }

/// Beyond this many distinct velocities the table gets evenly spaced columns
/// and each point the nearest (the papers use 902 columns).
constexpr size_t kMaxTableColumns = 1024;
/// Amplification beyond rounding: the response at k = 0 is exactly 1.
constexpr double kUnstable = 1 + 1e-9;

/// The velocities the table's columns stand for, and each point's column.
std::vector<double> discretiseVelocities(const rt::Grid<float> &velocity,
                                         rt::Grid<uint16_t> &column, const UniteVelocities &unite) {
  std::set<float> distinct;
  velocity.forEachPointWithHalo([&](int i, int j, int k) { distinct.insert(velocity(i, j, k)); });
  if (unite)
    distinct = unite(distinct);
  std::vector<double> columns(distinct.begin(), distinct.end());
  if (columns.size() > kMaxTableColumns) {
    const double lo = columns.front(), hi = columns.back();
    columns.resize(kMaxTableColumns);
    for (size_t c = 0; c < columns.size(); ++c)
      columns[c] = lo + (hi - lo) * double(c) / double(kMaxTableColumns - 1);
  }
  column.fillWith([&](int i, int j, int k) {
    const double v = velocity(i, j, k);
    auto above = std::lower_bound(columns.begin(), columns.end(), v);
    if (above == columns.end())
      return uint16_t(columns.size() - 1);
    if (above != columns.begin() && v - *(above - 1) < *above - v)
      --above;
    return uint16_t(above - columns.begin());
  });
  return columns;
}

/// The .stencil file a kernel of this program was generated from, parsed;
/// throws naming the file when it cannot be read or parsed.
stencilc::ir::Module parseStencilFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(path + ": cannot open (set --stencil-dir)");
  std::stringstream text;
  text << in.rdbuf();
  auto module = stencilc::parseModuleFromString(text.str(), path, llvm::errs());
  if (!module || module->stencils.empty())
    throw std::runtime_error(path + ": not a stencil this program was built with");
  return std::move(*module);
}

/// The points and classes of ete37_sponge's table, from the .stencil file
/// the kernel was generated from, so that the fit's rows are the kernel's.
stencilc::seismic::EtePoints etePointsFromStencil(const std::string &path) {
  const stencilc::ir::Module module = parseStencilFile(path);
  if (module.stencils[0].tables.empty())
    throw std::runtime_error(path + ": not the ETE stencil this program was built with");
  auto points = stencilc::seismic::etePointsForTable(module.stencils[0], 0);
  if (auto *why = std::get_if<std::string>(&points))
    throw std::runtime_error(path + ": " + *why);
  return std::get<stencilc::seismic::EtePoints>(points);
}

class EtePropagator final : public Propagator {
public:
  EtePropagator(const rt::Grid<float> &velocity, const rt::Grid<float> &damping, double h,
                double dt, const std::string &stencilDir, const UniteVelocities &unite,
                bool allowUnstable, Direction direction)
      : Propagator(velocity.shape(), direction),
        ete_(fitEteTable(velocity, h, dt, stencilDir, unite, allowUnstable)),
        damping_(damping.clone()) {
    table_ = std::make_unique<TableReport>(ete_.report);
  }

private:
  rt::ErasedArgs args(rt::Grid<float> &next) override {
    // The adjoint reads vidx at each neighbour through shifted views of it.
    rt::ErasedArgs a =
        rt::bindFields(kernel(), extentOf(next),
                       {rt::namedField("p_prev", previous()), rt::namedField("p_cur", current()),
                        rt::namedField("p_next", next), rt::namedField("vidx", ete_.column),
                        rt::namedField("damp", damping_)});
    const rt::CoefficientTable<float> &c = ete_.coefficients;
    a.tables.push_back({c.data(), c.rowStride(), c.colStride(), c.rows(), c.cols()});
    return a;
  }
  const rt::KernelInfo &kernel() const override { return kernelOf(Operator::Ete37, direction_); }

  EteTable ete_;
  rt::Grid<float> damping_;
};

class FdPropagator final : public Propagator {
public:
  FdPropagator(const rt::Grid<float> &velocity, const rt::Grid<float> &damping, double h, double dt,
               Direction direction)
      : Propagator(velocity.shape(), direction), courant2_(velocity.shape()),
        damping_(damping.clone()) {
    courant2_.fillWith([&](int i, int j, int k) {
      const double c = velocity(i, j, k) * dt / h;
      return c * c;
    });
  }

private:
  rt::ErasedArgs args(rt::Grid<float> &next) override {
    return rt::bindFields(kernel(), extentOf(next),
                          {rt::namedField("u_prev", previous()), rt::namedField("u", current()),
                           rt::namedField("u_next", next), rt::namedField("c2", courant2_),
                           rt::namedField("damp", damping_)});
  }
  const rt::KernelInfo &kernel() const override { return kernelOf(Operator::Fd8, direction_); }

  rt::Grid<float> courant2_;
  rt::Grid<float> damping_;
};

} // namespace

EteTable fitEteTable(const rt::Grid<float> &velocity, double h, double dt,
                     const std::string &stencilDir, const UniteVelocities &unite,
                     bool allowUnstable) {
  EteTable t{{}, rt::Grid<uint16_t>(velocity.shape()), {}};
  t.report.velocities = discretiseVelocities(velocity, t.column, unite);
  const auto points = etePointsFromStencil(stencilDir + "/ete37_sponge.stencil");
  stencilc::seismic::EteFitOptions options;
  options.spacing = h;
  options.dt = dt;
  t.report.fit = stencilc::seismic::fitEte(points, t.report.velocities, options);
  for (size_t v = 0; v < t.report.velocities.size(); ++v)
    if (t.report.fit.maxAmplification[v] > kUnstable && !allowUnstable)
      throw std::runtime_error("the ETE fit for v = " + std::to_string(t.report.velocities[v]) +
                               " m/s amplifies some wavenumbers (factor " +
                               std::to_string(t.report.fit.maxAmplification[v]) +
                               "): the step would be unstable; use a smaller Courant number");
  t.coefficients = stencilc::seismic::makeCoefficientTable<float>(t.report.fit);
  return t;
}

double fdCourantLimit(const std::string &stencilDir) {
  const std::string path = stencilDir + "/acoustic8_sponge.stencil";
  const stencilc::ir::Module module = parseStencilFile(path);
  llvm::SourceMgr sourceMgr; // the file parsed above; linearize reports nothing for it
  stencilc::DiagnosticEngine diag(sourceMgr, llvm::errs());
  auto linear = stencilc::linearize(module.stencils[0], diag);
  if (!linear)
    throw std::runtime_error(path + ": not a linear update");
  auto limit =
      stencilc::analysis::largestStableValue(module.stencils[0], *linear, 0, "c2", {{"damp", 1.0}});
  if (!limit.value)
    throw std::runtime_error(path + ": no stable time step: " + limit.why);
  return std::sqrt(*limit.value);
}

const rt::KernelInfo &kernelOf(Operator op, Direction direction) {
  // The registry entries of the kernels this program was built with.
  std::string name = op == Operator::Ete37 ? "ete37_sponge" : "acoustic8_sponge";
  if (direction == Direction::Adjoint)
    name += "_adjoint";
  const rt::KernelInfo *info = rt::findKernel(name);
  if (!info)
    throw std::logic_error("the " + name + " kernel is not linked in");
  return *info;
}

std::unique_ptr<Propagator> Propagator::create(Operator op, const rt::Grid<float> &velocity,
                                               const rt::Grid<float> &damping, double h, double dt,
                                               const std::string &stencilDir,
                                               const UniteVelocities &unite, bool allowUnstable,
                                               Direction direction) {
  if (velocity.shape() != damping.shape())
    throw std::invalid_argument("velocity and damping grids differ in shape");
  // The adjoint reads coefficients (and ETE's shifted index views) as far out as its radius.
  if (velocity.halo() < kernelOf(op, direction).radius)
    throw std::invalid_argument("the model's halo is smaller than the stencils' radius");
  if (op == Operator::Ete37)
    return std::make_unique<EtePropagator>(velocity, damping, h, dt, stencilDir, unite,
                                           allowUnstable, direction);
  return std::make_unique<FdPropagator>(velocity, damping, h, dt, direction);
}

} // namespace wave
