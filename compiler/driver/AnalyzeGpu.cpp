//===- AnalyzeGpu.cpp -----------------------------------------------------===//
#include "driver/AnalyzeGpu.h"

#include "analysis/Roofline.h"
#include "backends/cuda/ResourceUsage.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace stencilc::driver {

std::vector<analysis::GpuPrediction> predictVariants(const CompiledStencil &c,
                                                     const analysis::Machine &machine,
                                                     const GpuModelRequest &request) {
  std::vector<analysis::GpuPrediction> rows;
  // A kernel's static count is what a thread issues per point only where the
  // code runs once per point: gmem and ro. A march's count adds its prologue
  // and staging to the loop body; it computes what gmem computes a point, so
  // it takes gmem's count less gmem's global accesses, plus its own accesses.
  std::optional<double> arithmetic, arithmeticFp64;
  for (const std::string &variant : analysis::cudaVariants()) {
    analysis::GpuModelInputs in = request.inputs;
    if (auto r = request.registers.find(variant); r != request.registers.end())
      in.registers = r->second;
    if (auto b = request.spillBytes.find(variant); b != request.spillBytes.end())
      in.spillBytes = b->second;
    if (auto b = request.stackBytes.find(variant); b != request.stackBytes.end())
      in.stackBytes = b->second;
    const bool straightLine = variant == "gmem" || variant == "ro";
    auto n = request.instructions.find(variant);
    auto f = request.fp64Instructions.find(variant);
    if (straightLine && n != request.instructions.end()) {
      in.threadInstructions = double(n->second);
      if (f != request.fp64Instructions.end())
        in.threadFp64Instructions = double(f->second);
    } else if (!straightLine && arithmetic) {
      in.arithmeticInstructions = *arithmetic;
      in.threadFp64Instructions = arithmeticFp64;
    }
    rows.push_back(analysis::predictGpu(c, variant, machine, in));
    if (variant == "gmem" && in.threadInstructions) {
      const analysis::GpuTraffic &t = rows.back().traffic;
      constexpr int kWarp = 32; // requests are per warp, instructions per thread
      arithmetic = std::max(0.0, *in.threadInstructions -
                                     kWarp * (t.globalLoadRequests + t.globalStoreRequests));
      arithmeticFp64 = in.threadFp64Instructions;
    }
  }
  return rows;
}

const analysis::GpuPrediction &chosenVariant(const std::vector<analysis::GpuPrediction> &rows) {
  // The first of equals: the variants are listed simplest first.
  return *std::max_element(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
    return a.predictedGpts < b.predictedGpts;
  });
}

llvm::json::Object gpuModelJson(const analysis::GpuPrediction &p) {
  const analysis::GpuTraffic &t = p.traffic;
  llvm::json::Object bounds;
  for (const analysis::GpuBoundTerm &term : p.terms) // null: the variant does not use it
    bounds[term.name] = std::isfinite(term.gpts) ? llvm::json::Value(term.gpts) : nullptr;
  return llvm::json::Object{
      {"bound", p.bound},
      {"predicted_gpts", p.predictedGpts},
      {"dram_bytes_per_point", p.dramBytesPerPoint},
      {"l2_bytes_per_point", p.l2BytesPerPoint},
      {"shared_wavefronts_per_point", t.sharedWavefronts},
      {"warp_instructions_per_point", p.warpInstructionsPerPoint},
      {"occupancy", p.occupancy},
      {"blocks_per_sm", p.blocksPerSm},
      {"registers", p.registersPerThread},
      {"registers_from", p.registersFromPtxas ? "ptxas" : "estimate"},
      {"instructions_from", p.instructionsFrom},
      {"fp64_instructions_per_point", p.fp64InstructionsPerPoint},
      {"spill_bytes_per_point", p.spillBytesPerPoint},
      {"spills_in_l1", p.spillsInL1},
      {"shared_bytes_per_block", p.sharedBytesPerBlock},
      {"round_trips_per_point", p.roundTripsPerPoint},
      {"bytes_in_flight_per_sm", p.bytesInFlightPerSm},
      {"bytes_in_flight_needed", p.bytesInFlightNeeded},
      {"bounds_gpts", std::move(bounds)},
      {"per_point", llvm::json::Object{{"global_load_requests", t.globalLoadRequests},
                                       {"global_load_sectors", t.globalLoadSectors},
                                       {"global_store_requests", t.globalStoreRequests},
                                       {"global_store_sectors", t.globalStoreSectors},
                                       {"shared_requests", t.sharedRequests},
                                       {"shared_wavefronts", t.sharedWavefronts},
                                       {"barriers", t.barriers},
                                       {"l1_distinct_sectors", t.l1DistinctSectors},
                                       {"dram_bytes_estimate", t.dramBytesEstimate}}},
  };
}

void printGpuModel(const std::vector<analysis::GpuPrediction> &rows,
                   const analysis::Machine &machine, const GpuModelRequest &request,
                   llvm::raw_ostream &os) {
  const analysis::GpuModelInputs &in = request.inputs;
  os << fmt::format(
      "  GPU model                {}x{}x{} points, block {}x{}, nw {}, {} "
      "row{} per thread (traditional), {} index, Nd {} "
      "(docs/PERFORMANCE-MODEL.md §GPU model)\n",
      in.extent.nx, in.extent.ny, in.extent.nz, in.shape.blockX, in.shape.blockY,
      in.shape.planesPerBlock, in.shape.rowsPerThread, in.shape.rowsPerThread == 1 ? "" : "s",
      in.index == analysis::IndexFill::Random ? "random" : "layered", in.tableColumns);
  os << fmt::format("  {:<12} {:>7} {:>7} {:>9} {:>9} {:>5} {:>7} {:>9}", "variant", "DRAM B",
                    "L2 B", "shared wf", "warp ins", "regs", "spill B", "occupancy");
  for (const analysis::GpuBoundTerm &term : rows.front().terms)
    os << fmt::format(" {:>8}", term.name);
  os << fmt::format(" {:>10} {}\n", "predicted", "bound");
  for (const analysis::GpuPrediction &p : rows) {
    os << fmt::format("  {:<12} {:>7.2f} {:>7.2f} {:>9.3f} {:>9.3f} {:>4}{} {:>7.0f} {:>9.2f}",
                      p.variant, p.dramBytesPerPoint, p.l2BytesPerPoint, p.traffic.sharedWavefronts,
                      p.warpInstructionsPerPoint, p.registersPerThread,
                      p.registersFromPtxas ? " " : "~", p.spillBytesPerPoint, p.occupancy);
    for (const analysis::GpuBoundTerm &term : p.terms) // "-": a resource the variant does not use
      os << (std::isfinite(term.gpts) ? fmt::format(" {:>8.1f}", term.gpts)
                                      : fmt::format(" {:>8}", "-"));
    os << fmt::format(" {:>10.1f} {}\n", p.predictedGpts, p.bound);
  }
  const analysis::GpuPrediction &best = chosenVariant(rows);
  os << fmt::format("  chosen                   {} ({:.1f} GPts/s, bound by {}){}\n", best.variant,
                    best.predictedGpts, best.bound,
                    rows.front().registersFromPtxas ? ""
                                                    : "; ~ registers estimated, --ptxas "
                                                      "measures them");
  (void)machine;
}

bool measureKernels(const CompiledStencil &c, const std::string &arch, int tableColumns,
                    GpuModelRequest &request, std::string &error) {
  backend::ResourceUsageOptions usage;
  usage.nvcc = backend::findNvcc();
  if (usage.nvcc.empty()) {
    error = "--ptxas: nvcc is neither on PATH nor in /usr/local/cuda/bin";
    return false;
  }
  usage.runtimeInclude = STENCILC_RUNTIME_DIR "/include";
  usage.archs = {arch};
  usage.target = "stencilc analyze --ptxas";
  usage.tableColumns = tableColumns;
  usage.countInstructions = true;
  llvm::SmallString<256> work;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("stencilc-ptxas", work)) {
    error = "--ptxas: cannot create a work directory: " + ec.message();
    return false;
  }
  usage.workDir = std::string(work);
  std::vector<backend::KernelResources> rows;
  bool ok = backend::measureResources(c, usage, rows, error);
  llvm::sys::fs::remove_directories(usage.workDir);
  if (!ok)
    return false;
  for (const backend::KernelResources &r : rows) {
    // The instance of the rows per thread the model predicts (kRows): "traditional/ro-table"
    // is a kernel of traditional.
    const std::string variant = r.variant.substr(0, r.variant.find('/'));
    if (r.rows != analysis::rowsPerThreadOf(c, variant, request.inputs.shape))
      continue;
    if (r.sweep == 0 && !request.registers.count(r.variant))
      request.registers[r.variant] = r.registers;
    request.instructions[r.variant] += r.ptxInstructions;
    request.fp64Instructions[r.variant] += r.ptxFp64Instructions;
    request.spillBytes[r.variant] += r.spillStores + r.spillLoads;
    request.stackBytes[r.variant] = std::max(request.stackBytes[r.variant], r.stackBytes);
  }
  return true;
}

} // namespace stencilc::driver
