//===- RunChecks.cpp - What a wave run is refused for before it computes ----===//
#include "RunChecks.h"

#include "analysis/RunBudget.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace wave {

namespace rt = stencilc::rt;
using stencilc::analysis::bytesText;

std::uint64_t gridBytes(const rt::GridShape &shape, Operator op) {
  const std::uint64_t floats = rt::GridLayout::of<float>(shape).elements * sizeof(float);
  const std::uint64_t column = rt::GridLayout::of<uint16_t>(shape).elements * sizeof(uint16_t);
  // velocity, sponge, two levels; then the operator's coefficients.
  return 4 * floats + (op == Operator::Fd8 ? 2 * floats : floats + column);
}

void checkMemory(std::uint64_t bytesPerProcess, int processesHere, std::uint64_t available) {
  const double need = double(bytesPerProcess) * processesHere;
  if (available == 0 || need <= double(available))
    return;
  throw std::invalid_argument(fmt::format(
      "the run needs {} of grids{} and this machine has {} available: a smaller --size, or "
      "more machines (docs/DISTRIBUTED.md)",
      bytesText(need),
      processesHere > 1 ? fmt::format(" ({} per process, {} processes here)",
                                      bytesText(double(bytesPerProcess)), processesHere)
                        : "",
      bytesText(double(available))));
}

int spongeWidth(int requested, bool given, int nx, int ny, int nz) {
  const int shortest = std::min({nx, ny, nz});
  if (!given)
    return std::min(20, shortest / 3);
  if (requested < 0)
    throw std::invalid_argument(fmt::format("--sponge {}: expected 0 or more points", requested));
  const char *axis = shortest == nx ? "x" : shortest == ny ? "y" : "z";
  if (3 * requested > shortest)
    throw std::invalid_argument(fmt::format(
        "--sponge {} is wider than a third of the grid along {} ({} points): at most {}", requested,
        axis, shortest, shortest / 3));
  return requested;
}

double minPointsPerWavelength(Operator op) { return op == Operator::Fd8 ? 3.0 : 1 / 0.3; }

void checkFrequency(double peak, double vmin, double h, Operator op) {
  const double top = kRickerBandFactor * peak;
  const double points = vmin / top / h;
  const double needed = minPointsPerWavelength(op);
  if (points >= needed)
    return;
  // Rounded down, so that the frequency the message offers passes.
  const double highest = std::floor(vmin / (needed * h * kRickerBandFactor) * 10) / 10;
  throw std::invalid_argument(fmt::format(
      "--frequency {} Hz is more than the grid resolves: the wavelet reaches {:.4g} Hz ({} x "
      "its peak), a wavelength of {:.3g} m at the slowest velocity ({:.6g} m/s), {:.2f} points "
      "of h = {} m; the {} operator needs {:.2f} points per wavelength, so --frequency {} Hz "
      "at most here (or a finer grid); --allow-undersampled runs it anyway",
      peak, top, kRickerBandFactor, vmin / top, vmin, points, h, operatorName(op), needed,
      highest));
}

} // namespace wave
