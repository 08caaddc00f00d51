//===- AnalyzeOrders.cpp - `stencilc analyze --orders`: the order sweep ----===//
#include "driver/AnalyzeOrders.h"

#include "analysis/OrderSweep.h"
#include "frontend/OrderOverride.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace stencilc::driver {

namespace {

/// One stencil of one file, swept.
struct Sweep {
  std::string file, stencil, type;
  int dims = 3;
  std::vector<analysis::OrderRow> rows;
  /// With a machine: the lowest even order whose counts reach the ridge, if
  /// any up to the language's highest order.
  std::optional<int> firstComputeBound;
  /// The highest order the search compiled (below the language's limit when
  /// an order failed to compile).
  int searchedTo = 0;
};

/// Loads `path` at `order`; null after the diagnostics were printed.
std::unique_ptr<LoadedModule> loadAt(const std::string &path, int order, LoadOptions options) {
  options.order = order;
  return loadModule(path, options);
}

bool computeBound(const analysis::StencilCounts &counts, ir::ElemType type,
                  const analysis::Machine &machine) {
  return counts.operationalIntensity() >= analysis::ridgeIntensity(machine, type);
}

/// The rule, stated once per report.
constexpr const char *kPpwRule =
    "points per wavelength p = 6 at order 2, 2 at order 24, linear between, rounded "
    "(Louboutin et al., Table 2); cost of one wavelength^d for one period = p^d * p / Courant "
    "point updates";

std::string orNone(const std::optional<double> &v, const char *format) {
  return v ? fmt::format(fmt::runtime(format), *v) : std::string("-");
}

void printSweep(const Sweep &sw, const std::optional<analysis::Machine> &machine,
                llvm::raw_ostream &os) {
  const ir::ElemType type = sw.type == "double" ? ir::ElemType::Double : ir::ElemType::Float;
  os << fmt::format("stencil {} ({}, {}), orders {}\n", sw.stencil, sw.file, sw.type,
                    fmt::join(
                        [&] {
                          std::vector<int> o;
                          for (const auto &r : sw.rows)
                            o.push_back(r.order);
                          return o;
                        }(),
                        ","));
  if (machine)
    os << fmt::format("  machine {} ({:g} GB/s, {:g} GFLOP/s {}): ridge {:.3f} flop/B\n",
                      machine->name, machine->bandwidthGBs, machine->peakGflops(type), sw.type,
                      analysis::ridgeIntensity(*machine, type));
  os << "  " << kPpwRule << "\n";
  std::string cell = sw.dims == 2 ? "wl^2" : "wl^3";
  os << fmt::format("  {:>5} {:>6} {:>8} {:>8} {:>7}", "order", "points", "flops/pt", "bytes/pt",
                    "flop/B");
  if (machine)
    os << fmt::format(" {:>12} {:>9} {:<7}", "bound GPts/s", "GFLOP/s", "limit");
  os << fmt::format(" {:>3} {:>8} {:>12} {:>14}", "ppw", "courant", "steps/period",
                    "updates/(" + cell + "*T)");
  os << (machine ? fmt::format(" {:>16} {:>8}\n", "us/(" + cell + "*T)", "relative")
                 : fmt::format(" {:>18} {:>8}\n", "flops/(" + cell + "*T)", "relative"));
  // Relative to the first row's time (with a machine) or flops (without).
  std::optional<double> base;
  std::vector<std::string> noCost; // why rows have no cost, each reason once
  for (const analysis::OrderRow &r : sw.rows) {
    const analysis::OrderCost &c = r.cost;
    os << fmt::format("  {:>5} {:>6} {:>8} {:>8} {:>7.3f}", r.order, r.counts.points,
                      r.counts.flopsPerPoint, r.counts.bytesPerPoint,
                      r.counts.operationalIntensity());
    if (r.bound)
      os << fmt::format(" {:>12.4g} {:>9.4g} {:<7}", r.bound->gptsPerSecond, r.bound->gflops,
                        r.bound->limit);
    os << fmt::format(" {:>3} {:>8}", c.pointsPerWavelength, orNone(c.courant, "{:.4f}"));
    if (!c.courant) {
      os << "\n";
      if (std::find(noCost.begin(), noCost.end(), c.why) == noCost.end())
        noCost.push_back(c.why);
      continue;
    }
    double measure = c.secondsPerCellPeriod ? *c.secondsPerCellPeriod * 1e6 : c.flopsPerCellPeriod;
    if (!base)
      base = measure;
    os << fmt::format(" {:>12.2f} {:>14.4g}", c.stepsPerPeriod, c.updatesPerCellPeriod);
    os << fmt::format(" {:>{}.4g} {:>8.3f}\n", measure, machine ? 16 : 18, measure / *base);
  }
  for (const std::string &why : noCost)
    os << "  no cost per wavelength: " << why << "\n";
  if (machine) {
    if (sw.firstComputeBound)
      os << fmt::format("  compute-bound from order {}\n", *sw.firstComputeBound);
    else
      os << fmt::format("  memory-bound at every order up to {}\n", sw.searchedTo);
  }
}

llvm::json::Object sweepJson(const Sweep &sw, const std::optional<analysis::Machine> &machine) {
  const ir::ElemType type = sw.type == "double" ? ir::ElemType::Double : ir::ElemType::Float;
  llvm::json::Array rows;
  for (const analysis::OrderRow &r : sw.rows) {
    const analysis::OrderCost &c = r.cost;
    llvm::json::Object o{{"order", r.order},
                         {"points", r.counts.points},
                         {"flops_per_point", r.counts.flopsPerPoint},
                         {"bytes_per_point", r.counts.bytesPerPoint},
                         {"operational_intensity", r.counts.operationalIntensity()},
                         {"points_per_wavelength", c.pointsPerWavelength}};
    if (r.bound) {
      o["bound_gpts_per_s"] = r.bound->gptsPerSecond;
      o["bound_gflops"] = r.bound->gflops;
      o["limit"] = r.bound->limit;
    }
    if (c.courant) {
      o["courant"] = *c.courant;
      o["steps_per_period"] = c.stepsPerPeriod;
      o["updates_per_cell_period"] = c.updatesPerCellPeriod;
      o["flops_per_cell_period"] = c.flopsPerCellPeriod;
      if (c.secondsPerCellPeriod)
        o["seconds_per_cell_period"] = *c.secondsPerCellPeriod;
    } else {
      o["no_cost_why"] = c.why;
    }
    rows.push_back(std::move(o));
  }
  llvm::json::Object o{{"file", sw.file}, {"stencil", sw.stencil}, {"type", sw.type},
                       {"dims", sw.dims}, {"ppw_rule", kPpwRule},  {"orders", std::move(rows)}};
  if (machine) {
    o["machine"] = machine->name;
    o["bandwidth_gbs"] = machine->bandwidthGBs;
    o["peak_gflops"] = machine->peakGflops(type);
    o["ridge_intensity"] = analysis::ridgeIntensity(*machine, type);
    o["searched_up_to_order"] = sw.searchedTo;
    o["lowest_compute_bound_order"] = sw.firstComputeBound
                                          ? llvm::json::Value(*sw.firstComputeBound)
                                          : llvm::json::Value(nullptr);
  }
  return o;
}

} // namespace

int analyzeOrders(const std::vector<std::string> &files, const std::vector<int> &requested,
                  const std::optional<analysis::Machine> &machine, bool json, LoadOptions options) {
  const int highest = maxAccuracyOrder();
  for (int order : requested)
    if (order < 2 || order % 2 != 0 || order > highest) {
      reportError(fmt::format("--orders: {} is not an accuracy order; give even orders from 2 "
                              "to {} (2,4,...,16)",
                              order, highest));
      return 2;
    }
  std::vector<int> orders = requested;
  std::sort(orders.begin(), orders.end());
  if (auto dup = std::adjacent_find(orders.begin(), orders.end()); dup != orders.end()) {
    reportError(fmt::format("--orders lists {} twice", *dup));
    return 2;
  }

  int status = 0;
  std::vector<Sweep> sweeps;
  for (const std::string &path : files) {
    // Every order's stencils, compiled; a file that fails at one order is
    // refused whole (the diagnostics say why, once).
    std::map<int, std::unique_ptr<LoadedModule>> loaded;
    auto at = [&](int order) -> const LoadedModule * {
      auto it = loaded.find(order);
      if (it == loaded.end())
        it = loaded.emplace(order, loadAt(path, order, options)).first;
      return it->second.get();
    };
    bool ok = true;
    for (int order : orders)
      if (!at(order)) {
        ok = false;
        break;
      }
    if (!ok) {
      status = 1;
      continue;
    }
    const size_t stencils = at(orders.front())->compiled.size();
    for (size_t i = 0; i < stencils; ++i) {
      const CompiledStencil &first = at(orders.front())->compiled[i];
      Sweep sw{
          path, first.stencil->name, ir::elemTypeName(first.stencil->elemType), first.stencil->dims,
          {},   std::nullopt};
      const std::optional<std::string> notWave = analysis::notAWaveStep(first);
      for (int order : orders)
        sw.rows.push_back(analysis::orderRow(at(order)->compiled[i], order,
                                             machine ? &*machine : nullptr, notWave));
      if (machine) {
        // The lowest order at the ridge, compiling the orders not requested
        // as far as needed: intensity need not be monotone in the order.
        for (int order = 2; order <= highest && !sw.firstComputeBound; order += 2) {
          const LoadedModule *m = at(order);
          if (!m) {
            status = 1;
            break;
          }
          const CompiledStencil &c = m->compiled[i];
          sw.searchedTo = order;
          if (computeBound(analysis::countStencil(c), c.stencil->elemType, *machine))
            sw.firstComputeBound = order;
        }
      }
      sweeps.push_back(std::move(sw));
    }
  }
  if (json) {
    llvm::json::Array report;
    for (const Sweep &sw : sweeps)
      report.push_back(sweepJson(sw, machine));
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))).str() << "\n";
  } else {
    for (const Sweep &sw : sweeps)
      printSweep(sw, machine, llvm::outs());
  }
  return status;
}

} // namespace stencilc::driver
