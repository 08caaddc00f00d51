//===- FitEteCommand.cpp - stencilc fit-ete --------------------------------===//
//
//   stencilc fit-ete FILE --spacing H --dt DT --velocities V1,V2,... [-o table.npy]
//   stencilc fit-ete FILE --spacing H --dt DT --vmin A --vmax B --nd N [-o table.npy]
//
// Fits the coefficient table of an ETE stencil (docs/DESIGN.md §ETE
// coefficients [1, eq. 3]; EteFit.h)
// for each velocity, prints the misfit per velocity and whether the step is
// stable, and writes the table as .npy in the runtime's row-major layout:
// shape (rows, Nd), column v for the v-th velocity, so an index field holds
// the velocity's position in the list.
//
//===----------------------------------------------------------------------===//
#include "driver/Driver.h"
#include "seismic/EteStencil.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

using namespace stencilc;

namespace {
llvm::cl::SubCommand
    fitEteCommand("fit-ete", "Fit an ETE coefficient table by least squares (docs/SEISMIC.md)");

llvm::cl::opt<std::string> inputFile(llvm::cl::Positional, llvm::cl::desc("<file.stencil>"),
                                     llvm::cl::Required, llvm::cl::sub(fitEteCommand));
llvm::cl::opt<std::string> stencilName("stencil",
                                       llvm::cl::desc("Stencil to fit (default: the first with a "
                                                      "table whose rows follow a point set)"),
                                       llvm::cl::value_desc("name"), llvm::cl::sub(fitEteCommand));
llvm::cl::opt<std::string> tableName("table",
                                     llvm::cl::desc("Table to fit (default: the stencil's first "
                                                    "table whose rows follow a point set)"),
                                     llvm::cl::value_desc("name"), llvm::cl::sub(fitEteCommand));
llvm::cl::opt<double> spacing("spacing", llvm::cl::desc("Grid spacing h, every axis (metres)"),
                              llvm::cl::value_desc("h"), llvm::cl::Required,
                              llvm::cl::sub(fitEteCommand));
llvm::cl::opt<double> timeStep("dt", llvm::cl::desc("Time step (seconds)"),
                               llvm::cl::value_desc("dt"), llvm::cl::Required,
                               llvm::cl::sub(fitEteCommand));
llvm::cl::list<double> velocityList("velocities",
                                    llvm::cl::desc("Velocities, one table column each (m/s)"),
                                    llvm::cl::value_desc("v,..."), llvm::cl::CommaSeparated,
                                    llvm::cl::sub(fitEteCommand));
llvm::cl::opt<double> vmin("vmin", llvm::cl::desc("Lowest of --nd evenly spaced velocities"),
                           llvm::cl::value_desc("m/s"), llvm::cl::sub(fitEteCommand));
llvm::cl::opt<double> vmax("vmax", llvm::cl::desc("Highest of --nd evenly spaced velocities"),
                           llvm::cl::value_desc("m/s"), llvm::cl::sub(fitEteCommand));
llvm::cl::opt<int> velocityCount("nd", llvm::cl::desc("Number of evenly spaced velocities"),
                                 llvm::cl::value_desc("N"), llvm::cl::init(0),
                                 llvm::cl::sub(fitEteCommand));
llvm::cl::opt<double> band("band",
                           llvm::cl::desc("Fit |k| <= band * pi/h, a fraction of Nyquist (default "
                                          "0.6)"),
                           llvm::cl::value_desc("fraction"), llvm::cl::init(0.6),
                           llvm::cl::sub(fitEteCommand));
llvm::cl::opt<int> samples("samples",
                           llvm::cl::desc("Wavenumber samples per half-axis of the band (default "
                                          "12)"),
                           llvm::cl::value_desc("N"), llvm::cl::init(12),
                           llvm::cl::sub(fitEteCommand));
llvm::cl::opt<bool> allowUnstable(
    "allow-unstable",
    llvm::cl::desc("Write the table even where the step it was fitted for is unstable (for "
                   "experiments)"),
    llvm::cl::sub(fitEteCommand));
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Write the table here (.npy)"),
                                      llvm::cl::value_desc("file"), llvm::cl::sub(fitEteCommand));

/// Only amplification beyond rounding counts as unstable.
constexpr double kStableAmplification = 1 + 1e-9;

/// The velocities from --velocities or --vmin/--vmax/--nd, or an empty list
/// after reporting why not.
std::vector<double> requestedVelocities() {
  const bool range =
      vmin.getNumOccurrences() || vmax.getNumOccurrences() || velocityCount.getNumOccurrences();
  if (!velocityList.empty() && range) {
    driver::reportError("give either --velocities or --vmin/--vmax/--nd, not both");
    return {};
  }
  if (!velocityList.empty())
    return {velocityList.begin(), velocityList.end()};
  if (!vmin.getNumOccurrences() || !vmax.getNumOccurrences() || velocityCount < 1) {
    driver::reportError("give the velocities: --velocities V1,V2,... or --vmin A --vmax B --nd N");
    return {};
  }
  if (velocityCount > 1 && !(vmax > vmin)) {
    driver::reportError("--vmax must be greater than --vmin");
    return {};
  }
  std::vector<double> velocities;
  for (int v = 0; v < velocityCount; ++v)
    velocities.push_back(velocityCount == 1 ? vmin
                                            : vmin + (vmax - vmin) * v / (velocityCount - 1));
  return velocities;
}

struct TableChoice {
  const ir::Stencil *stencil = nullptr;
  int table = -1;
  seismic::EtePoints points;
};

/// The table to fit: the one --stencil/--table name, or the first whose rows
/// follow a point set. Reports why there is none and returns nullopt.
std::optional<TableChoice> chooseTable(const ir::Module &module, DiagnosticEngine &diag) {
  bool sawStencil = false;
  for (const ir::Stencil &stencil : module.stencils) {
    if (!stencilName.empty() && stencil.name != stencilName)
      continue;
    sawStencil = true;
    bool sawTable = false;
    for (size_t t = 0; t < stencil.tables.size(); ++t) {
      if (!tableName.empty() && stencil.tables[t].name != tableName)
        continue;
      sawTable = true;
      auto points = seismic::etePointsForTable(stencil, int(t));
      if (auto *found = std::get_if<seismic::EtePoints>(&points))
        return TableChoice{&stencil, int(t), std::move(*found)};
      if (!tableName.empty()) {
        diag.error(stencil.tables[t].loc, std::get<std::string>(points));
        return std::nullopt;
      }
    }
    if (!tableName.empty() && !sawTable) {
      diag.error(stencil.loc, "stencil '" + stencil.name + "' has no table '" + tableName + "'");
      return std::nullopt;
    }
    if (!stencilName.empty()) {
      diag.error(stencil.loc, "stencil '" + stencil.name +
                                  "' has no table whose rows follow a point set "
                                  "(table C[classes(S)] or C[points(S)])");
      return std::nullopt;
    }
  }
  if (!stencilName.empty() && !sawStencil)
    driver::reportError("'" + inputFile + "' has no stencil named '" + stencilName + "'");
  else
    driver::reportError("'" + inputFile +
                        "' has no table whose rows follow a point set "
                        "(table C[classes(S)] or C[points(S)])");
  return std::nullopt;
}

void printFit(const TableChoice &choice, const std::vector<double> &velocities,
              const seismic::EteFit &fit) {
  const ir::Table &table = choice.stencil->tables[choice.table];
  llvm::outs() << fmt::format(
      "stencil {}, table {}: {} points, {} rows; h = {} m, dt = {} s, band |k| <= {} pi/h\n",
      choice.stencil->name, table.name, choice.points.offsets.size(), choice.points.numClasses,
      spacing.getValue(), timeStep.getValue(), band.getValue());
  llvm::outs() << fmt::format("{:>8} {:>10} {:>12} {:>12} {:>14}\n", "column", "velocity",
                              "rms misfit", "max misfit", "amplification");
  for (size_t v = 0; v < velocities.size(); ++v)
    llvm::outs() << fmt::format("{:>8} {:>10.2f} {:>12.3e} {:>12.3e} {:>14.9f}{}\n", v,
                                velocities[v], fit.rmsMisfit[v], fit.maxMisfit[v],
                                fit.maxAmplification[v],
                                fit.maxAmplification[v] > kStableAmplification ? "  UNSTABLE" : "");
}

/// The largest time step, to within 0.1 %, at which the fit for the fastest
/// velocity is stable (it binds: stability goes with the Courant number
/// v dt / h), found by bisection below the requested one.
std::string stableLimit(const seismic::EtePoints &points, const std::vector<double> &velocities,
                        const seismic::EteFitOptions &requested) {
  const double fastest = *std::max_element(velocities.begin(), velocities.end());
  auto stable = [&](double dt) {
    seismic::EteFitOptions o = requested;
    o.dt = dt;
    try {
      return seismic::fitEte(points, {fastest}, o).maxAmplification[0] <= kStableAmplification;
    } catch (const std::invalid_argument &) {
      return false;
    }
  };
  double lo = 0, hi = requested.dt;
  while (hi - lo > 1e-3 * hi) {
    const double mid = 0.5 * (lo + hi);
    (stable(mid) ? lo : hi) = mid;
  }
  if (lo == 0)
    return "no smaller time step is stable either";
  return fmt::format("at {} m/s the fit is stable up to --dt {:.6g} s (Courant number {:.3f})",
                     fastest, lo, fastest * lo / requested.spacing);
}

int runFitEte() {
  std::vector<double> velocities = requestedVelocities();
  if (velocities.empty())
    return 1;
  auto loaded = driver::loadModule(inputFile, {});
  if (!loaded)
    return 1;
  auto choice = chooseTable(loaded->module, *loaded->diag);
  if (!choice)
    return 1;

  seismic::EteFitOptions options;
  options.spacing = spacing;
  options.dt = timeStep;
  options.band = band;
  options.samplesPerHalfAxis = samples;
  seismic::EteFit fit;
  try {
    fit = seismic::fitEte(choice->points, velocities, options);
  } catch (const std::invalid_argument &e) {
    driver::reportError(e.what());
    return 1;
  }
  printFit(*choice, velocities, fit);

  int unstable = 0;
  for (double a : fit.maxAmplification)
    unstable += a > kStableAmplification;
  if (unstable) {
    const std::string what = fmt::format(
        "{} of {} velocities amplify some wavenumber (amplification > 1): the step is unstable "
        "there; {}",
        unstable, velocities.size(), stableLimit(choice->points, velocities, options));
    if (!allowUnstable) {
      driver::reportError(what + " (--allow-unstable writes the table anyway)");
      return 1;
    }
    llvm::WithColor::warning(llvm::errs(), "stencilc") << what << "\n";
  }

  if (!outputFile.empty()) {
    try {
      seismic::writeTableNpy(fit, choice->stencil->elemType, outputFile);
    } catch (const std::runtime_error &e) {
      driver::reportError(e.what());
      return 1;
    }
    llvm::outs() << "wrote " << outputFile << "\n";
  }
  return 0;
}

const driver::CommandRegistration registration(fitEteCommand, &runFitEte);

} // namespace
