//===- OrderSweep.cpp - Intensity, roofline and cost of a stencil per order -===//
#include "analysis/OrderSweep.h"

#include "analysis/Stability.h"

#include <algorithm>
#include <cmath>

namespace stencilc::analysis {

int pointsPerWavelength(int order) {
  if (order >= 24)
    return 2;
  return int(std::lround(6.0 - 4.0 * (order - 2) / 22.0));
}

double ridgeIntensity(const Machine &machine, ir::ElemType type) {
  return machine.peakGflops(type) / machine.bandwidthGBs;
}

std::optional<std::string> notAWaveStep(const CompiledStencil &c) {
  const ir::Stencil &s = *c.stencil;
  bool advances = false;
  for (size_t u = 0; u < c.linear.updates.size(); ++u) {
    const ir::Field &out = s.fields[c.linear.updates[u].output];
    if (out.advances < 0)
      continue;
    advances = true;
    TimeStepLimit l = stableTimeStep(s, c.linear, int(u));
    if (!l.limit.value)
      return out.name + ": " + l.limit.why;
    if (l.quantity != "dt" || std::find(l.heldAt1.begin(), l.heldAt1.end(), "h") == l.heldAt1.end())
      return out.name + ": the stable limit is on '" + l.quantity +
             "', not on 'dt' with a spacing 'h'";
    // dt <= C h / v doubles with h; a diffusion step's h^2 / alpha quadruples.
    StableLimit twice = largestStableValue(s, c.linear, int(u), "dt", {{"h", 2.0}});
    if (!twice.value || std::abs(*twice.value / *l.limit.value - 2) > 1e-3)
      return out.name + ": its stable dt does not grow in proportion to h (not a wave step)";
  }
  if (!advances)
    return std::string("no update advances a time level");
  return std::nullopt;
}

std::optional<double> courantNumber(const CompiledStencil &c, std::string &why) {
  const ir::Stencil &s = *c.stencil;
  std::optional<double> least;
  for (size_t u = 0; u < c.linear.updates.size(); ++u) {
    const ir::Field &out = s.fields[c.linear.updates[u].output];
    if (out.advances < 0)
      continue;
    TimeStepLimit l = stableTimeStep(s, c.linear, int(u));
    if (!l.limit.value) {
      why = out.name + ": " + l.limit.why;
      return std::nullopt;
    }
    least = least ? std::min(*least, *l.limit.value) : *l.limit.value;
  }
  if (!least)
    why = "no update advances a time level";
  return least;
}

OrderRow orderRow(const CompiledStencil &c, int order, const Machine *machine,
                  const std::optional<std::string> &notWave) {
  OrderRow row;
  row.order = order;
  row.counts = countStencil(c);
  const ir::ElemType type = c.stencil->elemType;
  if (machine) {
    OrderBound b;
    b.memoryGpts = machine->bandwidthGBs / row.counts.bytesPerPoint;
    b.computeGpts = machine->peakGflops(type) / row.counts.flopsPerPoint;
    b.gptsPerSecond = std::min(b.memoryGpts, b.computeGpts);
    b.gflops = b.gptsPerSecond * row.counts.flopsPerPoint;
    b.limit = b.computeGpts <= b.memoryGpts ? "compute" : "memory";
    row.bound = b;
  }
  OrderCost &cost = row.cost;
  cost.pointsPerWavelength = pointsPerWavelength(order);
  if (notWave)
    cost.why = *notWave;
  else
    cost.courant = courantNumber(c, cost.why);
  if (cost.courant) {
    const double p = cost.pointsPerWavelength;
    cost.pointsPerCell = std::pow(p, c.stencil->dims);
    cost.stepsPerPeriod = p / *cost.courant;
    cost.updatesPerCellPeriod = cost.pointsPerCell * cost.stepsPerPeriod;
    cost.flopsPerCellPeriod = cost.updatesPerCellPeriod * row.counts.flopsPerPoint;
    if (row.bound)
      cost.secondsPerCellPeriod = cost.updatesPerCellPeriod / (row.bound->gptsPerSecond * 1e9);
  }
  return row;
}

} // namespace stencilc::analysis
