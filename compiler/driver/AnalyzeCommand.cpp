//===- AnalyzeCommand.cpp - `stencilc analyze`: counts, plan and roofline --===//
//
//   stencilc analyze FILE... [--machine M] [--json] [--plan-target T] [--explain]
//                    [--nd N] [--onchip-budget B] [--cache-budget B] [--split N] [--table-space S]
//
// Per stencil: the shape counts (analysis/StencilCounts.h), flops and
// compulsory bytes per point and their ratio; per variant of the target's
// backend: loads per point, register-queue entries, on-chip bytes per block,
// sweeps, and with --machine the roofline bound and the roof that sets it;
// per update that advances a time level, its stable time step (von Neumann
// analysis, analysis/Stability.h, docs/SEISMIC.md §Stable time step).
// docs/PERFORMANCE-MODEL.md defines every number.
//
//===----------------------------------------------------------------------===//
#include "analysis/Machine.h"
#include "analysis/Roofline.h"
#include "analysis/Stability.h"
#include "analysis/StencilCounts.h"
#include "driver/AnalyzeGpu.h"
#include "driver/AnalyzeOrders.h"
#include "driver/Driver.h"
#include "driver/PlanOptions.h"
#include "kernel/KernelIR.h"
#include "target/CudaArchs.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

using namespace stencilc;

namespace {

llvm::cl::SubCommand analyzeCommand("analyze",
                                    "Count points, flops and bytes; plan; bound by a roofline");

llvm::cl::list<std::string> files(llvm::cl::Positional, llvm::cl::desc("<file.stencil>..."),
                                  llvm::cl::OneOrMore, llvm::cl::sub(analyzeCommand));
llvm::cl::opt<std::string>
    machineName("machine",
                llvm::cl::desc("Machine file, or the name of one in bench/machines (e.g. a100)"),
                llvm::cl::value_desc("machine"), llvm::cl::sub(analyzeCommand));
llvm::cl::opt<bool> json("json", llvm::cl::desc("Print JSON"), llvm::cl::sub(analyzeCommand));
llvm::cl::list<int> orders("orders",
                           llvm::cl::desc("Re-derive the derivative sugar at each even order and "
                                          "compare them (driver/AnalyzeOrders.h)"),
                           llvm::cl::value_desc("2,4,...,16"), llvm::cl::CommaSeparated,
                           llvm::cl::sub(analyzeCommand));
llvm::cl::opt<bool> explain("explain", llvm::cl::desc("Say what each pass decided and why"),
                            llvm::cl::sub(analyzeCommand));
// --plan-target defaults to the machine's architecture ("arch" in a GPU machine file).
driver::PlanCommandLine plan({&analyzeCommand});
enum class TypeOverride { AsDeclared, Float, Double };
llvm::cl::opt<TypeOverride>
    type("type", llvm::cl::desc("Element type (default: the stencil's)"),
         llvm::cl::values(clEnumValN(TypeOverride::Float, "float", "single precision"),
                          clEnumValN(TypeOverride::Double, "double", "double precision")),
         llvm::cl::init(TypeOverride::AsDeclared), llvm::cl::sub(analyzeCommand));
llvm::cl::opt<int> blockX("block-x", llvm::cl::desc("GPU block width for on-chip bytes"),
                          llvm::cl::init(32), llvm::cl::sub(analyzeCommand));
llvm::cl::opt<int> blockY("block-y", llvm::cl::desc("GPU block height for on-chip bytes"),
                          llvm::cl::init(8), llvm::cl::sub(analyzeCommand));
// The GPU model (--machine naming a GPU file with a "gpu" object).
llvm::cl::opt<int> gpuRows("rows",
                           llvm::cl::desc("GPU model: output rows per thread of traditional "
                                          "(LaunchOptions::rows; default 1)"),
                           llvm::cl::value_desc("n"), llvm::cl::init(1),
                           llvm::cl::sub(analyzeCommand));
llvm::cl::list<int> gpuSize(
    "size", llvm::cl::desc("GPU model: the grid, NX,NY,NZ (NX,NY in 2D; default 512,512,400)"),
    llvm::cl::value_desc("NX,NY,NZ"), llvm::cl::CommaSeparated, llvm::cl::sub(analyzeCommand));
llvm::cl::opt<analysis::IndexFill> gpuIndex(
    "index", llvm::cl::desc("GPU model: how index fields are filled"),
    llvm::cl::values(clEnumValN(analysis::IndexFill::Random, "random", "uniformly random columns"),
                     clEnumValN(analysis::IndexFill::Layered, "layered",
                                "a layered model: one column per warp")),
    llvm::cl::init(analysis::IndexFill::Random), llvm::cl::sub(analyzeCommand));
llvm::cl::opt<bool>
    gpuPtxas("ptxas",
             llvm::cl::desc("GPU model: registers (nvcc -Xptxas -v) and instructions (its PTX) "
                            "of the compiled kernels instead of the plan's estimates"),
             llvm::cl::sub(analyzeCommand));

/// What a variant keeps and loads, from the plane plan.
struct VariantShape {
  int loadsPerPoint = 0;
  int registers = 0;
  long onChipBytes = 0;
};

/// Time-field values read per grid point when every point is gathered.
int gatheredLoads(const CompiledStencil &c) { return int(summarizeReads(c.linear).points.size()); }

/// Shared-memory bytes of the most table rows one sweep of the plan keeps on chip.
long sharedTableBytes(const CompiledStencil &c, const PlanTarget &target) {
  if (c.planReport.candidates.empty())
    return 0;
  const PlanCandidate &chosen = c.planReport.candidates[c.planReport.chosen];
  int rows = 0;
  for (const auto &tiers : chosen.rowsPerTier)
    rows = std::max(rows, tiers[0]);
  return long(rows) * target.nd * ir::elemTypeBytes(c.stencil->elemType);
}

VariantShape shapeOf(const CompiledStencil &c, const std::string &variant, const PlanTarget &target,
                     BlockShape block) {
  const int elem = ir::elemTypeBytes(c.stencil->elemType);
  const PlanePlan &p = c.planePlan;
  // On a GPU both marching kernels keep the table rows the plan put on chip.
  const long tableBytes = target.kind == PlanTarget::Kind::Cuda ? sharedTableBytes(c, target) : 0;
  if (variant == "traditional")
    return {p.traditionalLoads, p.traditionalRegisters,
            traditionalOnChipBytes(p, block, elem) + tableBytes};
  if (variant == "planes" && target.kind == PlanTarget::Kind::Cuda)
    return {p.planesLoads, p.planesRegisters, planesOnChipBytes(p, block, elem) + tableBytes};
  if (variant == "planes")
    return {p.planesLoads, 0, 0}; // the CPU keeps its partial planes in cache, not registers
  return {gatheredLoads(c), 0, 0};
}

/// "dt <= 0.452889 (v, h at 1)" or "none: why", for update `u` of `c`.
struct StepLimitText {
  std::string output, text;
  analysis::TimeStepLimit limit;
};

std::vector<StepLimitText> stepLimits(const CompiledStencil &c) {
  std::vector<StepLimitText> lines;
  const ir::Stencil &s = *c.stencil;
  for (size_t u = 0; u < c.linear.updates.size(); ++u) {
    const ir::Field &out = s.fields[c.linear.updates[u].output];
    if (out.advances < 0)
      continue;
    StepLimitText line{out.name, "", analysis::stableTimeStep(s, c.linear, int(u))};
    const analysis::TimeStepLimit &l = line.limit;
    if (l.limit.value) {
      std::string held;
      for (const std::string &name : l.heldAt1)
        held += (held.empty() ? "" : ", ") + name;
      line.text = fmt::format("{} <= {:.6g}{}", l.quantity, *l.limit.value,
                              held.empty() ? "" : " (" + held + " at 1)");
    } else {
      line.text = "none: " + l.limit.why;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

struct Row {
  std::string variant;
  VariantShape shape;
  std::optional<analysis::RooflineBound> bound;
  analysis::VariantCost cost;
};

int runAnalyze() {
  std::optional<analysis::Machine> machine;
  if (!machineName.empty()) {
    auto loaded = analysis::loadMachine(machineName);
    if (!loaded) {
      driver::reportError(llvm::toString(loaded.takeError()));
      return 2;
    }
    machine = *loaded;
  }
  // A GPU machine file names its architecture; one that does not is planned
  // for the oldest GPU stencilc generates for.
  std::string defaultTarget = "cpu";
  if (machine && machine->kind == "gpu")
    defaultTarget = machine->arch.empty() ? driver::cudaArchNames().front() : machine->arch;
  driver::LoadOptions options;
  if (!plan.apply(defaultTarget, options.pipeline))
    return 2;
  PlanTarget *target = &options.pipeline.target;
  if (blockX < 1 || blockY < 1 || blockX * blockY > 1024) {
    driver::reportError("--block-x and --block-y must be positive with at most 1024 threads");
    return 2;
  }
  target->block = {blockX, blockY};
  bool cuda = target->kind == PlanTarget::Kind::Cuda;
  const bool gpuModel = machine && machine->gpu && cuda;
  driver::GpuModelRequest gpuRequest;
  if (gpuModel) {
    analysis::GpuModelInputs &in = gpuRequest.inputs;
    if (!gpuSize.empty()) {
      if (gpuSize.size() < 2 || gpuSize.size() > 3 ||
          *std::min_element(gpuSize.begin(), gpuSize.end()) < 1) {
        driver::reportError("--size takes two or three positive extents, NX,NY[,NZ]");
        return 2;
      }
      in.extent = {gpuSize[0], gpuSize[1], gpuSize.size() == 3 ? gpuSize[2] : 1};
    }
    in.shape.blockX = blockX, in.shape.blockY = blockY;
    const std::vector<int> &counts = kernel::cudaRowCounts();
    if (std::find(counts.begin(), counts.end(), int(gpuRows)) == counts.end()) {
      std::vector<std::string> known;
      for (int n : counts)
        known.push_back(std::to_string(n));
      driver::reportError(fmt::format("--rows: {} is not a count of rows per thread traditional "
                                      "is compiled for ({})",
                                      int(gpuRows), llvm::join(known, ", ")));
      return 2;
    }
    in.shape.rowsPerThread = gpuRows;
    if (const target::CudaArch *arch = target::findCudaArch(target->name))
      in.shape.planesPerBlock = arch->launch.planesPerBlock;
    in.index = gpuIndex;
    in.tableColumns = target->nd;
  } else if (!gpuSize.empty() || gpuIndex.getNumOccurrences() || gpuPtxas ||
             gpuRows.getNumOccurrences()) {
    driver::reportError("--size, --index, --rows and --ptxas need --machine naming a GPU file "
                        "with \"gpu\" figures (bench/machines/h200.json)");
    return 2;
  }
  bool writeAllocate = machine ? machine->writeAllocate : target->writeAllocate;

  if (type != TypeOverride::AsDeclared)
    options.elemType = type == TypeOverride::Float ? ir::ElemType::Float : ir::ElemType::Double;
  if (explain)
    options.pipeline.explainStream = &llvm::outs();
  if (!orders.empty())
    return driver::analyzeOrders(files, orders, machine, json, options);

  int status = 0;
  llvm::json::Array report;
  for (const std::string &path : files) {
    auto loaded = driver::loadModule(path, options);
    if (!loaded) {
      status = 1;
      continue;
    }
    for (const CompiledStencil &c : loaded->compiled) {
      const ir::Stencil &s = *c.stencil;
      analysis::StencilCounts counts = analysis::countStencil(c);
      std::vector<analysis::GpuPrediction> predictions;
      if (gpuModel) {
        driver::GpuModelRequest request = gpuRequest;
        std::string error;
        if (gpuPtxas && !driver::measureKernels(c, target->name, target->nd, request, error)) {
          driver::reportError(error);
          return 1;
        }
        predictions = driver::predictVariants(c, *machine, request);
      }
      std::vector<Row> rows;
      for (const std::string &v : cuda ? analysis::cudaVariants() : analysis::cpuVariants()) {
        Row r{v, shapeOf(c, v, *target, target->block), std::nullopt,
              analysis::variantCost(c, v, writeAllocate)};
        if (machine)
          r.bound = analysis::rooflineBound(c, v, *machine);
        rows.push_back(r);
      }
      if (json) {
        llvm::json::Array variants;
        for (const Row &r : rows) {
          llvm::json::Object o{{"name", r.variant},
                               {"loads_per_point", r.shape.loadsPerPoint},
                               {"registers", r.shape.registers},
                               {"onchip_bytes", r.shape.onChipBytes},
                               {"sweeps", r.cost.sweeps},
                               {"flops_per_point", r.cost.flopsPerPoint},
                               {"bytes_per_point", r.cost.bytesPerPoint}};
          if (r.bound) {
            o["bound_gpts_per_s"] = r.bound->gptsPerSecond;
            o["limit"] = r.bound->limit;
          }
          for (const analysis::GpuPrediction &p : predictions)
            if (p.variant == r.variant)
              for (auto &[key, value] : driver::gpuModelJson(p))
                o[key] = value;
          variants.push_back(std::move(o));
        }
        llvm::json::Object o{{"file", path},
                             {"stencil", s.name},
                             {"type", ir::elemTypeName(s.elemType)},
                             {"plan_target", target->name},
                             {"nd", target->nd},
                             {"points", counts.points},
                             {"off_axis_points", counts.offAxisPoints},
                             {"coefficient_classes", counts.coefficientClasses},
                             {"z_columns", counts.zColumns},
                             {"flops_per_point", counts.flopsPerPoint},
                             {"bytes_per_point", counts.bytesPerPoint},
                             {"operational_intensity", counts.operationalIntensity()},
                             {"sweeps", int(c.decomposition.sweeps.size())},
                             {"variants", std::move(variants)}};
        if (machine)
          o["machine"] = machine->name;
        if (!predictions.empty())
          o["chosen_variant"] = driver::chosenVariant(predictions).variant;
        llvm::json::Array stability;
        for (const StepLimitText &line : stepLimits(c)) {
          llvm::json::Object entry{{"output", line.output}};
          if (line.limit.limit.value) {
            entry["quantity"] = line.limit.quantity;
            entry["limit"] = *line.limit.limit.value;
            llvm::json::Array held;
            for (const std::string &name : line.limit.heldAt1)
              held.push_back(name);
            entry["held_at_1"] = std::move(held);
          } else {
            entry["why_none"] = line.limit.limit.why;
          }
          stability.push_back(std::move(entry));
        }
        o["time_step_limits"] = std::move(stability);
        report.push_back(std::move(o));
        continue;
      }
      llvm::raw_ostream &os = llvm::outs();
      os << fmt::format("stencil {} ({}, {}, Nd = {}, plan for {})\n", s.name, path,
                        ir::elemTypeName(s.elemType), target->nd, target->name);
      os << fmt::format("  points                   {}\n", counts.points);
      os << fmt::format("  off-axis points          {}\n", counts.offAxisPoints);
      os << fmt::format("  coefficient classes      {}\n", counts.coefficientClasses);
      os << fmt::format("  z columns                {}\n", counts.zColumns);
      os << fmt::format("  flops per point          {}\n", counts.flopsPerPoint);
      os << fmt::format("  compulsory bytes/point   {}\n", counts.bytesPerPoint);
      os << fmt::format("  operational intensity    {:.3f} flop/B\n",
                        counts.operationalIntensity());
      os << fmt::format("  plan                     {} sweep{}\n", c.decomposition.sweeps.size(),
                        c.decomposition.sweeps.size() == 1 ? "" : "s");
      for (const StepLimitText &line : stepLimits(c))
        os << fmt::format("  stable step ({}){:>{}}{}\n", line.output, "",
                          std::max<int>(1, 11 - int(line.output.size())), line.text);
      if (machine)
        os << fmt::format("  machine                  {} ({:g} GB/s, {:g} GFLOP/s {}; {})\n",
                          machine->name, machine->bandwidthGBs, machine->peakGflops(s.elemType),
                          ir::elemTypeName(s.elemType), machine->source);
      os << fmt::format("  {:<12} {:>8} {:>9} {:>13} {:>6} {:>9} {:>8}", "variant", "loads/pt",
                        "registers", "on-chip B", "sweeps", "flops/pt", "bytes/pt");
      os << (machine ? fmt::format(" {:>13} {}\n", "bound GPts/s", "limit") : "\n");
      for (const Row &r : rows) {
        os << fmt::format("  {:<12} {:>8} {:>9} {:>13} {:>6} {:>9} {:>8g}", r.variant,
                          r.shape.loadsPerPoint, r.shape.registers, r.shape.onChipBytes,
                          r.cost.sweeps, r.cost.flopsPerPoint, r.cost.bytesPerPoint);
        os << (r.bound ? fmt::format(" {:>13.3f} {}\n", r.bound->gptsPerSecond, r.bound->limit)
                       : "\n");
      }
      if (!predictions.empty())
        driver::printGpuModel(predictions, *machine, gpuRequest, os);
    }
  }
  if (json)
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report))).str() << "\n";
  return status;
}

driver::CommandRegistration registration(analyzeCommand, &runAnalyze);

} // namespace
