//===- GpuModel.cpp -------------------------------------------------------===//
#include "analysis/GpuModel.h"

#include "analysis/CostModel.h"
#include "analysis/Roofline.h"
#include "ir/ExprVisitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace stencilc::analysis {
namespace {

constexpr double kSectorBytes = 32;
constexpr int kWarp = 32;

/// A structural key of `e`: equal for calls the compiler evaluates once (CSE).
std::string exprKey(const ir::Expr &e) {
  std::string key = std::to_string(int(e.kind)) + ":" + std::to_string(e.id) + ":" +
                    std::to_string(int(e.func)) + ":" + e.spelling + ":" +
                    std::to_string(e.number) + "(";
  for (int o : e.offset)
    key += std::to_string(o) + ",";
  for (const ir::ExprPtr &op : e.operands)
    key += exprKey(*op) + ";";
  return key + ")";
}

/// The distinct calls of a point's updates (equal calls evaluated once).
std::vector<ir::FuncKind> distinctCalls(const CompiledStencil &c) {
  std::map<std::string, ir::FuncKind> calls;
  for (const ir::Update &u : c.stencil->updates)
    ir::forEachExpr(*u.rhs, [&](const ir::Expr &e) {
      if (e.kind == ir::Expr::Kind::Call)
        calls.emplace(exprKey(e), e.func);
    });
  std::vector<ir::FuncKind> out;
  for (const auto &[key, f] : calls)
    out.push_back(f);
  return out;
}

/// Registers a thread of `variant` needs, estimated from what the plan keeps
/// live: a base for addresses, loop state and the running sum, plus every
/// register-queue value (traditional, one queue per row of the thread) or
/// partial sum (planes); a double takes two registers. ptxas's figure replaces
/// this when it is measured.
int estimateRegisters(const CompiledStencil &c, const std::string &variant, int rows) {
  const int perValue = ir::elemTypeBytes(c.stencil->elemType) / 4;
  constexpr int kBase = 32;
  int values = 0;
  for (const GpuSweepPlan &sweep : c.sweepPlan.gpu.sweeps) {
    if (variant == "traditional")
      values = std::max(values, sweep.queueValues() * rows);
    else if (variant == "planes") {
      int outputs = 0;
      for (const SweepUpdate &u : sweep.updates)
        outputs += u.slot >= 0 ? 1 : 0;
      values = std::max(values, sweep.ringSize() * outputs);
    }
  }
  return std::min(255, kBase + values * perValue);
}

/// Dynamic shared memory a block of `variant` asks for: its tiles (two
/// buffers where traditional pipelines) and the table rows it stages.
long sharedBytesPerBlock(const CompiledStencil &c, const std::string &variant,
                         const GpuModelInputs &in) {
  if (variant != "traditional" && variant != "planes")
    return 0;
  const int elem = ir::elemTypeBytes(c.stencil->elemType);
  long most = 0;
  for (const GpuSweepPlan &sweep : c.sweepPlan.gpu.sweeps) {
    const bool traditional = variant == "traditional";
    const int rx = traditional ? sweep.traditionalRx : sweep.planesRx;
    const int ry = traditional ? sweep.traditionalRy : sweep.planesRy;
    const long tiles = long(traditional ? sweep.traditionalTiles.size() : sweep.planesTiles.size());
    const int blockRows = in.shape.blockY * rowsPerThreadOf(c, variant, in.shape);
    const long tile = long(in.shape.blockX + 2 * rx) * (blockRows + 2 * ry) * elem;
    long rows = 0;
    for (const auto &[table, list] : sweep.sharedRows)
      rows += long(list.size());
    for (const auto &[table, list] : sweep.autoRows)
      rows += long(list.size());
    const long bytes =
        tiles * tile * (traditional ? sweep.traditionalBuffers : 1) + rows * in.tableColumns * elem;
    most = std::max(most, bytes);
  }
  return most;
}

/// Memory round trips one point waits for in turn. gmem and ro issue all of
/// a point's loads before the first use: one per sweep. A march waits, per
/// step, for each group of loads a barrier or a use separates from the next:
///  - traditional: its queue loads (before the barrier; none where they are
///    loaded a step ahead), then either the point's other global loads (after
///    it) or, where it has none, the tile
///    copied asynchronously while it computed, which has had no round trip's
///    time to land (two buffers); with one buffer every tile is loaded as
///    below, then the other loads. The march's first tile is waited for too.
///  - planes: each input plane's tile, then, at the store, the point's other
///    global loads, for nw + (plane offsets spanned) input planes per nw outputs.
/// A tile loaded with plain loads (loadTile) is waited for once per piece a
/// thread copies (an element, or a 16-byte vector where the tile's rows hold
/// whole vectors): the copy is a load and a dependent shared store, in a loop
/// whose trip count the compiler does not know.
double roundTrips(const CompiledStencil &c, const std::string &variant, const GpuModelInputs &in,
                  const GpuTraffic &t) {
  const std::vector<bool> &directLoads = t.directLoads;
  if (variant != "traditional" && variant != "planes")
    return double(c.decomposition.sweeps.size());
  double trips = 0;
  const int nw = std::max(1, std::min(in.shape.planesPerBlock, in.extent.nz));
  const int threads = in.shape.blockX * in.shape.blockY;
  for (size_t i = 0; i < c.sweepPlan.gpu.sweeps.size(); ++i) {
    const GpuSweepPlan &sweep = c.sweepPlan.gpu.sweeps[i];
    const bool direct = i < directLoads.size() && directLoads[i];
    auto copies = [&](const std::set<int> &tiles, int rx, int ry) {
      const int rows = rowsPerThreadOf(c, variant, in.shape);
      const int per = i < t.tileElementsPerCopy.size() ? t.tileElementsPerCopy[i] : 1;
      const int tile = (in.shape.blockX + 2 * rx) * (in.shape.blockY * rows + 2 * ry) / per;
      return double(tiles.size()) * double((tile + threads - 1) / threads);
    };
    if (variant == "traditional") {
      // With two buffers the next tile is in flight while the step computes;
      // the wait for it is exposed unless the step waited for loads of its own.
      // Queues loaded a step ahead (traditionalAhead) were issued a step before.
      const double queueWait = sweep.queues.empty() || sweep.traditionalAhead > 0 ? 0 : 1;
      if (sweep.traditionalBuffers >= 2)
        trips += queueWait + 1 + (sweep.traditionalTiles.empty() ? 0.0 : 1.0 / nw);
      else
        trips += queueWait + (direct ? 1 : 0) +
                 copies(sweep.traditionalTiles, sweep.traditionalRx, sweep.traditionalRy);
    } else {
      const int span =
          sweep.planeOffsets.empty() ? 0 : sweep.planeOffsets.back() - sweep.planeOffsets.front();
      const double perInput =
          copies(sweep.planesTiles, sweep.planesRx, sweep.planesRy) + (direct ? 1 : 0);
      trips += std::max(1.0, perInput) * double(nw + span) / nw;
    }
  }
  return trips;
}

} // namespace

CallCost callCost(ir::FuncKind f, ir::ElemType type) {
  // PTX instructions of `y[i] = f(x[i])` less those of `y[i] = x[i]`, and the
  // FP64 arithmetic among them, compiled by nvcc 13.0 for sm_90 (-ptx): a
  // static count, the argument reduction's slow path included, as the
  // compiled kernels' count (--ptxas) sees it. sqrt and abs are one PTX
  // instruction each.
  const bool dbl = type == ir::ElemType::Double;
  switch (f) {
  case ir::FuncKind::Sin: return dbl ? CallCost{209, 19} : CallCost{113, 0};
  case ir::FuncKind::Cos: return dbl ? CallCost{210, 19} : CallCost{114, 0};
  case ir::FuncKind::Exp: return dbl ? CallCost{61, 18} : CallCost{18, 0};
  case ir::FuncKind::Sqrt:
  case ir::FuncKind::Abs: return CallCost{1, dbl ? 1 : 0};
  }
  return {};
}

GpuPrediction predictGpu(const CompiledStencil &c, const std::string &variant,
                         const Machine &machine, const GpuModelInputs &in) {
  const GpuFigures &g = *machine.gpu;
  const ir::ElemType type = c.stencil->elemType;
  GpuPrediction p;
  p.variant = variant;
  p.traffic = gpuTraffic(c, variant, in.shape, in.extent, in.index, in.tableColumns);
  const GpuTraffic &t = p.traffic;

  // L2: what each block misses in L1, less the table rows L1 keeps across
  // blocks when they fit in what shared memory leaves of it (half, for the
  // grid's lines that pass through).
  p.sharedBytesPerBlock = sharedBytesPerBlock(c, variant, in);
  const double l1Left = double(g.l1BytesPerSm) - 2.0 * double(p.sharedBytesPerBlock);
  p.tablesInL1 = t.tableRowBytes > 0 && t.tableRowBytes <= l1Left / 2;
  p.l2BytesPerPoint =
      kSectorBytes *
      (t.l1DistinctSectors - (p.tablesInL1 ? t.tableBlockSectors : 0.0) + t.globalStoreSectors);
  // DRAM: the distinct sectors while L2 holds the planes read again.
  p.dramBytesPerPoint =
      t.reuseWindowBytes <= g.l2Bytes / 2 ? t.dramBytesEstimate : p.l2BytesPerPoint;

  // Occupancy: registers (allocated in units of 8 per thread, whole warps) and shared memory.
  const int threads = in.shape.blockX * in.shape.blockY;
  p.registersFromPtxas = in.registers.has_value();
  const int rows = rowsPerThreadOf(c, variant, in.shape);
  p.registersPerThread = in.registers ? *in.registers : estimateRegisters(c, variant, rows);
  const int warpsPerBlock = (threads + kWarp - 1) / kWarp;
  const long regsPerBlock = long((p.registersPerThread + 7) / 8 * 8) * kWarp * warpsPerBlock;
  int blocks = std::min(g.maxBlocksPerSm, g.maxThreadsPerSm / (warpsPerBlock * kWarp));
  blocks = std::min<long>(blocks, g.registersPerSm / std::max(1L, regsPerBlock));
  if (p.sharedBytesPerBlock > 0) // the runtime reserves 1 KiB a block
    blocks = std::min<long>(blocks, g.sharedBytesPerSm / (p.sharedBytesPerBlock + 1024));
  p.blocksPerSm = std::max(0, blocks);
  const double resident = double(p.blocksPerSm) * threads;
  p.occupancy = resident / g.maxThreadsPerSm;

  // Instructions: each request is one warp instruction; flops issue one each
  // (a fused multiply-add counts two flops and is one: the estimate is high),
  // calls their PTX cost. In double every flop is FP64 arithmetic.
  const VariantCost cost = variantCost(c, variant, /*writeAllocate=*/false);
  const bool dbl = type == ir::ElemType::Double;
  const double accesses = t.globalLoadRequests + t.globalStoreRequests + t.sharedRequests;
  double threadArithmetic = double(cost.flopsPerPoint), threadFp64 = dbl ? threadArithmetic : 0;
  for (ir::FuncKind f : distinctCalls(c)) {
    const CallCost call = callCost(f, type);
    threadArithmetic += call.instructions - 1;
    if (dbl)
      threadFp64 += call.fp64 - 1;
  }
  if (in.threadInstructions) {
    p.instructionsFrom = "ptx";
    p.warpInstructionsPerPoint = *in.threadInstructions / kWarp;
  } else if (in.arithmeticInstructions) {
    p.instructionsFrom = "ptx of gmem";
    p.warpInstructionsPerPoint = *in.arithmeticInstructions / kWarp + accesses;
  } else {
    p.warpInstructionsPerPoint = threadArithmetic / kWarp + accesses;
  }
  p.instructionsFromPtx = p.instructionsFrom != "estimate";
  if (in.threadFp64Instructions)
    threadFp64 = *in.threadFp64Instructions;
  p.fp64InstructionsPerPoint = std::max(0.0, threadFp64) / kWarp;

  // Spilled registers: each local store or load a thread's code holds runs
  // once a point; an access of 4 or 8 bytes is one instruction (counted at
  // the element's size). Local memory is interleaved by 4-byte words across
  // the lanes, so a warp's access touches 4 sectors a word, like a coalesced
  // row. It stays in L1 while the resident threads' stack frames fit in what
  // shared memory leaves of it; past that, its sectors go to L2.
  p.spillBytesPerPoint = double(in.spillBytes);
  const double spillSectors = p.spillBytesPerPoint / kSectorBytes;
  p.warpInstructionsPerPoint += p.spillBytesPerPoint / ir::elemTypeBytes(type) / kWarp;
  p.spillsInL1 = resident * in.stackBytes <= l1Left;
  if (!p.spillsInL1)
    p.l2BytesPerPoint += p.spillBytesPerPoint;

  const double sms = g.multiprocessors, clock = g.clockGHz; // GHz: results in GPts/s
  const double loadBytes = kSectorBytes * t.globalLoadSectors;
  p.roundTripsPerPoint = roundTrips(c, variant, in, t);
  // A thread with several rows has each row's loads of a step in flight at once.
  p.bytesInFlightPerSm =
      p.roundTripsPerPoint > 0 ? resident * rows * loadBytes / p.roundTripsPerPoint : 0;
  p.bytesInFlightNeeded = machine.bandwidthGBs / sms * g.memoryLatencyNs; // GB/s x ns = bytes
  auto perSecond = [](double rate, double per) {
    return per > 0 ? rate / per : std::numeric_limits<double>::infinity();
  };
  p.terms = {
      {"dram", perSecond(machine.bandwidthGBs, p.dramBytesPerPoint)},
      {"l2", perSecond(g.l2BandwidthGBs, p.l2BytesPerPoint)},
      {"l1", perSecond(sms * clock * g.l1SectorsPerClock, t.globalLoadSectors + spillSectors)},
      {"shared", perSecond(sms * clock * g.sharedWavefrontsPerClock, t.sharedWavefronts)},
      {"issue", perSecond(sms * clock * g.warpInstructionsPerClock, p.warpInstructionsPerPoint)},
      {"fp64", g.fp64InstructionsPerClock > 0
                   ? perSecond(sms * clock * g.fp64InstructionsPerClock, p.fp64InstructionsPerPoint)
                   : std::numeric_limits<double>::infinity()},
      {"latency", p.blocksPerSm == 0
                      ? 0.0
                      : perSecond(sms * resident * rows, p.roundTripsPerPoint * g.memoryLatencyNs)},
      {"compute", perSecond(machine.peakGflops(type), double(cost.flopsPerPoint))},
  };
  p.predictedGpts = std::numeric_limits<double>::infinity();
  for (const GpuBoundTerm &term : p.terms)
    if (term.gpts < p.predictedGpts) {
      p.predictedGpts = term.gpts;
      p.bound = term.name;
    }
  if (p.blocksPerSm == 0)
    p.bound = "occupancy"; // a block does not fit a multiprocessor
  return p;
}

} // namespace stencilc::analysis
