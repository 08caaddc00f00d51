//===- PlanePlan.cpp ------------------------------------------------------===//
#include "passes/PlanePlan.h"

#include "llvm/ADT/STLExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace stencilc {

namespace {

/// Grows the halo of `field` in `tiles` to cover `offset`'s x and y.
void coverInTile(std::vector<FieldHalo> &tiles, int field, const ir::Offset &offset) {
  auto it = std::find_if(tiles.begin(), tiles.end(),
                         [&](const FieldHalo &h) { return h.field == field; });
  if (it == tiles.end()) {
    tiles.push_back({field, 0, 0});
    it = tiles.end() - 1;
  }
  it->rx = std::max(it->rx, std::abs(offset[0]));
  it->ry = std::max(it->ry, std::abs(offset[1]));
}

} // namespace

PlanePlan planPlanes(const LinearStencil &linear) {
  PlanePlan plan;
  ReadSummary reads = summarizeReads(linear);
  plan.planes = reads.planes;
  if (!plan.planes.empty()) {
    plan.minDz = plan.planes.front().dz;
    plan.maxDz = plan.planes.back().dz;
  }

  // Columns: keyed by (field, dy, dx) so they come out in memory order.
  std::map<std::tuple<int, int, int>, PlaneColumn> columns;
  for (const PointRead &p : reads.points) {
    PlaneColumn &c = columns[{p.field, p.offset[1], p.offset[0]}];
    c.field = p.field;
    c.dx = p.offset[0];
    c.dy = p.offset[1];
    c.dzs.push_back(p.offset[2]); // points are sorted by field, then z, so dzs ascend
  }
  std::map<int, bool> centreFedByQueue; // field -> its (0,0) queue passes the centre plane
  std::map<int, bool> readsCentrePlane;
  for (auto &[key, c] : columns) {
    int lo = std::min(c.dzs.front(), 0), hi = std::max(c.dzs.back(), 0);
    bool offPlane = c.dzs.front() != 0 || c.dzs.back() != 0;
    if (llvm::is_contained(c.dzs, 0))
      readsCentrePlane[c.field] = true;
    if (!offPlane)
      continue;
    c.queueLength = hi - lo;
    if (c.dx == 0 && c.dy == 0 && hi > 0)
      centreFedByQueue[c.field] = true;
    plan.traditionalRegisters += c.queueLength;
    plan.traditionalLoads += 1;
    plan.columns.push_back(c);
  }
  // The centre plane reaches shared memory through the (0,0) queue when one
  // runs ahead of it; otherwise it is one more load per point.
  for (const auto &[field, reads] : readsCentrePlane)
    if (reads && !centreFedByQueue[field])
      plan.traditionalLoads += 1;

  for (const PointRead &p : reads.points) {
    if (p.offset[2] == 0 && (p.offset[0] != 0 || p.offset[1] != 0))
      coverInTile(plan.traditionalTiles, p.field, p.offset);
    if (p.offset != ir::Offset{0, 0, 0})
      coverInTile(plan.planesTiles, p.field, p.offset);
  }
  auto byField = [](const FieldHalo &a, const FieldHalo &b) { return a.field < b.field; };
  std::sort(plan.traditionalTiles.begin(), plan.traditionalTiles.end(), byField);
  std::sort(plan.planesTiles.begin(), plan.planesTiles.end(), byField);

  // One-to-multi: one load per time field read, one partial-sum queue per update.
  std::vector<int> fields;
  for (const PointRead &p : reads.points)
    if (!llvm::is_contained(fields, p.field))
      fields.push_back(p.field);
  plan.planesLoads = int(fields.size());
  for (const LinearForm &form : linear.updates) {
    ReadSummary own = summarizeReads(form);
    int extent = own.planes.empty() ? 1 : own.planes.back().dz - own.planes.front().dz + 1;
    plan.partialSumQueue.push_back(extent);
    plan.planesRegisters += extent;
  }
  return plan;
}

long sharedTileBytes(const std::vector<FieldHalo> &tiles, BlockShape block, int elemBytes) {
  long bytes = 0;
  for (const FieldHalo &h : tiles)
    bytes += long(block.x + 2 * h.rx) * (block.y + 2 * h.ry) * elemBytes;
  return bytes;
}

long traditionalOnChipBytes(const PlanePlan &plan, BlockShape block, int elemBytes) {
  long threads = long(block.x) * block.y;
  return sharedTileBytes(plan.traditionalTiles, block, elemBytes) +
         threads * plan.traditionalRegisters * elemBytes;
}

int traditionalTileBuffers(bool sharedPlanes, int queueValues, int elemBytes) {
  constexpr int kMostQueueRegisters = 255 * 3 / 4;
  return sharedPlanes && queueValues * elemBytes / 4 <= kMostQueueRegisters ? 2 : 1;
}

int traditionalLoadAhead(int queueValues, int elemBytes) {
  constexpr int kMostAheadQueueRegisters = 255 * 3 / 8;
  return queueValues * elemBytes / 4 <= kMostAheadQueueRegisters ? 1 : 0;
}

long planesOnChipBytes(const PlanePlan &plan, BlockShape block, int elemBytes) {
  long threads = long(block.x) * block.y;
  return sharedTileBytes(plan.planesTiles, block, elemBytes) +
         threads * plan.planesRegisters * elemBytes;
}

bool verifyPlanePlan(const LinearStencil &linear, const PlanePlan &plan,
                     std::vector<std::string> &problems) {
  size_t before = problems.size();
  ReadSummary reads = summarizeReads(linear);
  size_t planned = 0;
  for (const ReadPlane &plane : plan.planes) {
    planned += plane.reads.size();
    for (const PointRead &p : plane.reads)
      if (p.offset[2] != plane.dz)
        problems.push_back(
            fmt::format("plane dz={} holds a point with dz={}", plane.dz, p.offset[2]));
  }
  if (planned != reads.points.size())
    problems.push_back(fmt::format("plane plan holds {} points, the stencil reads {}", planned,
                                   reads.points.size()));
  if (int(plan.columns.size()) != reads.offPlaneColumns)
    problems.push_back(fmt::format("plane plan has {} off-plane columns, the reads have {}",
                                   plan.columns.size(), reads.offPlaneColumns));
  if (plan.partialSumQueue.size() != linear.updates.size())
    problems.push_back("plane plan has no partial-sum queue for some update");
  return problems.size() == before;
}

void printPlanePlan(const ir::Stencil &s, const PlanePlan &plan, llvm::raw_ostream &os) {
  os << fmt::format("  plane plan: dz {}..{}\n", plan.minDz, plan.maxDz);
  for (const ReadPlane &plane : plan.planes) {
    std::string list;
    int lastField = -1;
    for (const PointRead &p : plane.reads) {
      if (p.field != lastField)
        list += fmt::format("{}{}:", list.empty() ? "" : " ", s.fields[p.field].name);
      lastField = p.field;
      list += fmt::format(" ({},{})", p.offset[0], p.offset[1]);
    }
    os << fmt::format("    plane dz={:+d}: {} point{}: {}\n", plane.dz, plane.reads.size(),
                      plane.reads.size() == 1 ? "" : "s", list);
  }
  std::string columns;
  for (const PlaneColumn &c : plan.columns)
    columns += fmt::format("{}{}({},{})x{}", columns.empty() ? "" : " ", s.fields[c.field].name,
                           c.dx, c.dy, c.queueLength);
  os << fmt::format("    multi-to-one: {} off-plane columns, {} queue registers, {} loads per "
                    "point\n",
                    plan.columns.size(), plan.traditionalRegisters, plan.traditionalLoads);
  if (!columns.empty())
    os << fmt::format("      columns (field(dx,dy)xqueue): {}\n", columns);
  std::string queues;
  for (size_t u = 0; u < plan.partialSumQueue.size(); ++u)
    queues += fmt::format("{}{}", u ? ", " : "", plan.partialSumQueue[u]);
  os << fmt::format("    one-to-multi: partial-sum queue {} ({} registers), {} loads per point\n",
                    queues, plan.planesRegisters, plan.planesLoads);
}

} // namespace stencilc
