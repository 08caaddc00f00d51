//===- CudaEmitter.cpp - CUDA kernels from the kernel IR ------------------===//
//
// Prints the CUDA kernel IR (kernel/LowerCuda.cpp says what each of the four
// variants does) through the shared walker: thread loops become the launch
// grid's mapping onto the box, a march becomes a loop over the block's planes
// with its barriers, shared planes (loadTile) and register queues, and each
// point block declares the pointers its reads use (PointReads.h). A host
// launcher per sweep picks the kernel and sizes its shared memory from the
// same IR.
//
// Every kernel computes the points of one box (rt::Box, LaunchOptions::region,
// the whole extent by default): the launch grid covers the box and thread
// coordinates start at its origin, so a step can be split into boxes (a
// boundary shell and an interior for overlapped halo exchange) that together
// write exactly what one whole-grid launch writes.
//
//===----------------------------------------------------------------------===//
#include "backends/cuda/CudaEmitter.h"

#include "backends/CExpr.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "backends/KernelWalker.h"
#include "backends/cuda/CudaKernelPrinter.h"
#include "backends/cuda/PointReads.h"
#include "backends/cuda/TwoStepEntries.h"
#include "ir/Printer.h"
#include "kernel/KernelIR.h"
#include "support/Template.h"

#include "llvm/ADT/StringExtras.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::backend {

namespace {

using ir::FieldRole;
using ir::Offset;

using cuda_printer::CudaPrinter;
using cuda_printer::visit;

class CudaEmitter {
public:
  CudaEmitter(const CompiledStencil &c, const CudaEmitOptions &options)
      : compiled_(c), s_(*c.stencil), linear_(c.linear), decomposition_(c.decomposition),
        plans_(c.sweepPlan.gpu.sweeps), module_(c.cudaKernels), names_(s_),
        kernel_(options.kernelName.empty() ? s_.name : options.kernelName),
        source_(options.sourcePath.empty() ? s_.name + ".stencil" : options.sourcePath),
        target_(options.target.empty() ? "not named by the caller" : options.target) {
    if (module_.target != kernel::Target::Cuda || module_.sweeps.size() != plans_.size())
      throw std::logic_error("the CUDA kernels of '" + s_.name +
                             "' were not lowered (the pipeline's lower-cuda pass)");
  }

  std::vector<CudaSharedFootprint> footprints() const {
    std::vector<CudaSharedFootprint> out;
    for (const GpuSweepPlan &plan : plans_) {
      CudaSharedFootprint f;
      f.traditionalPlanes = int(plan.traditionalTiles.size());
      f.traditionalRx = plan.traditionalRx;
      f.traditionalRy = plan.traditionalRy;
      f.planesPlanes = plan.accumulates() ? int(plan.planesTiles.size()) : 0;
      f.planesRx = plan.planesRx;
      f.planesRy = plan.planesRy;
      for (const auto &[table, rows] : plan.sharedRows)
        f.stagedRows += int(rows.size());
      for (const auto &[table, rows] : plan.autoRows)
        f.autoRows += int(rows.size());
      if (const kernel::Function *twoStep =
              module_.sweeps[out.size()].find(fmt::format("sweep{}_twostep", out.size()))) {
        const size_t rings = kernel::ringFields(s_, linear_, *twoStep).size();
        f.twoStepPlanes = int(rings) * (2 * twoStep->rz + 1);
        f.twoStepRx = twoStep->rx;
        f.twoStepRy = twoStep->ry;
      }
      out.push_back(f);
    }
    return out;
  }

  std::vector<GeneratedFile> emit() {
    TemplateValues common = {{"SOURCE", source_},
                             {"DESCRIPTION", description()},
                             {"KERNEL", kernel_},
                             {"TARGET", target_}};
    TemplateValues header = abiHeaderValues(s_, names_, common);
    TemplateValues source =
        abiSourceValues(s_, linear_, names_, kernel_, int(decomposition_.sweeps.size()), 7, common);
    source["SWEEPS"] = sweeps();
    source["RUN_BODY"] = runBody();
    const std::string why = kernel::twoStepReason(compiled_);
    header["TWO_STEP_LAUNCH"] = why.empty() ? "true" : "false";
    header["TWO_STEP_WHY"] = why.empty()
                                 ? "one sweep per step, every output the next level of a time field"
                                 : "not here: " + why;
    header["ARCH_DEFAULTS"] = archDefaults();
    header["TUNED_LAUNCHES"] = tunedLaunches();
    header["MARCHING_VARIANTS"] = marchingVariants();
    header["ROW_VARIANTS"] = rowVariants();
    const std::vector<int> counts = rowCountsOfModule();
    std::vector<std::string> countText;
    for (int n : counts)
      countText.push_back(std::to_string(n));
    header["ROW_COUNTS"] = llvm::join(countText, ", ");
    source["ROW_COUNTS_TEXT"] =
        countText.size() == 1
            ? countText[0]
            : llvm::join(llvm::ArrayRef(countText).drop_back(), ", ") + " or " + countText.back();
    header["MAX_THREADS_PER_BLOCK"] = std::to_string(kernel::kCudaMaxThreadsPerBlock);
    header["SECOND_OUTPUT_MEMBERS"] = secondOutputMembers(s_, names_);
    source["TWO_STEP_ENTRIES"] = twoStepEntries(s_, names_, kernel_, why);
    source["ERASED_SECOND_OUTPUTS"] = erasedSecondOutputs(s_, names_, kernel_);
    return {
        {kernel_ + "_cuda.h", renderTemplate(embeddedTemplate("cuda/kernel_cuda.h.tmpl"), header)},
        {kernel_ + ".cu", renderTemplate(embeddedTemplate("cuda/kernel.cu.tmpl"), source)}};
  }

private:
  /// The rows of kArchDefaults: the launch defaults the lowering recorded.
  std::string archDefaults() const {
    auto bytes = [](int n) {
      return n % 1024 == 0 ? fmt::format("{} * 1024", n / 1024) : std::to_string(n);
    };
    std::string out;
    for (const kernel::ArchLaunch &l : module_.launchDefaults) {
      for (llvm::StringRef line : llvm::split(l.origin, '\n'))
        if (!line.empty())
          out += "    // " + line.str() + "\n";
      out += fmt::format("    {{{}, Variant::{}, {}, {}, {}, {}, {}, {}}},\n", l.computeCapability,
                         variantEnumerator(l.variant), l.blockX, l.blockY, l.planesPerBlock,
                         l.rowsPerThread, bytes(l.sharedBytes), bytes(l.maxSharedBytes));
    }
    return out;
  }

  /// The cases of marchesInZ: the variants whose entry takes nw in some sweep.
  std::string marchingVariants() const {
    std::string out;
    for (const std::string &v : kernel::cudaStepVariants())
      if (kernel::marchesInZ(module_, v))
        out += fmt::format("  case Variant::{}:\n", variantEnumerator(v));
    return out.empty() ? "" : out + "    return true;\n";
  }

  /// The cases of takesRows: the variants whose entries list rows per thread.
  std::string rowVariants() const {
    std::string out;
    for (const std::string &v : kernel::cudaStepVariants())
      if (kernel::rowCounts(module_, v).size() > 1)
        out += fmt::format("  case Variant::{}:\n", variantEnumerator(v));
    return out.empty() ? "" : out + "    return true;\n";
  }

  /// Every count of rows per thread some variant takes, ascending.
  std::vector<int> rowCountsOfModule() const {
    std::set<int> counts;
    for (const std::string &v : kernel::cudaStepVariants())
      for (int n : kernel::rowCounts(module_, v))
        counts.insert(n);
    return {counts.begin(), counts.end()};
  }

  /// The header's Variant enumerator of variant `name` ("traditional" -> "Traditional").
  static std::string variantEnumerator(std::string name) {
    name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
    return name;
  }

  /// kTunedLaunches: the tuned launches `gen --tuning` put in the module, each with where it
  /// comes from.
  std::string tunedLaunches() const {
    const auto &tuned = module_.tunedLaunches;
    if (tuned.empty())
      return "inline constexpr std::array<TunedLaunch, 0> kTunedLaunches = {};";
    std::string out;
    for (const kernel::TunedLaunch &t : tuned) {
      out += fmt::format("// \"{}\" (sm_{}):\n", t.device, t.computeCapability);
      for (llvm::StringRef line : llvm::split(t.origin, '\n'))
        out += "//   " + line.str() + "\n";
    }
    out += fmt::format("inline constexpr std::array<TunedLaunch, {}> kTunedLaunches = {{{{\n",
                       tuned.size());
    for (const kernel::TunedLaunch &t : tuned)
      out += fmt::format("    {{\"{}\", {}, Variant::{}, {}, {}, {}, {}}},\n", t.device,
                         t.computeCapability, variantEnumerator(t.variant), t.blockX, t.blockY,
                         t.nw, t.rows);
    return out + "}};";
  }

private:
  //===--------------------------------------------------------------------===//
  // Declarations
  //===--------------------------------------------------------------------===//

  std::string description() const {
    std::string d = stencilSummary(s_, linear_, decomposition_);
    d += ".\n";
    for (size_t sweep = 0; sweep < plans_.size(); ++sweep) {
      const GpuSweepPlan &plan = plans_[sweep];
      int shared = 0, autos = 0, others = int(plan.placement.size());
      for (const auto &[table, rows] : plan.sharedRows)
        shared += int(rows.size());
      for (const auto &[table, rows] : plan.autoRows)
        autos += int(rows.size());
      others -= shared + autos;
      d += fmt::format("// Sweep {}: traditional keeps {} shared plane{} and {} register queue{} "
                       "({} values{}); planes keeps {} shared plane{} and {} partial sum{} per "
                       "output",
                       sweep, plan.traditionalTiles.size(),
                       plan.traditionalTiles.size() == 1 ? "" : "s", plan.queues.size(),
                       plan.queues.size() == 1 ? "" : "s", plan.queueValues(),
                       plan.traditionalAhead > 0 ? ", loaded a plane ahead" : "",
                       plan.planesTiles.size(), plan.planesTiles.size() == 1 ? "" : "s",
                       plan.ringSize(), plan.ringSize() == 1 ? "" : "s");
      if (!plan.placement.empty())
        d += fmt::format(";\n//   table rows in shared memory: {} always, {} if they fit the "
                         "budget (else read-only), {} read-only or global",
                         shared, autos, others);
      d += ".\n";
    }
    d += "// Variants (LaunchOptions::variant): gmem, ro (read-only coefficients), traditional "
         "(2.5D\n// blocking), planes (one-to-multi partial sums); traditional and planes march "
         "nw planes per block.\n";
    return d;
  }

  //===--------------------------------------------------------------------===//
  // Host launchers
  //===--------------------------------------------------------------------===//

  /// The launch of a marching kernel (traditional, planes): its shared planes with their
  /// halo and the table rows it stages in shared memory; the rows the plan left to the
  /// backend too when they fit the budget (kStageAuto), else through the read-only cache.
  std::string marchingLaunch(int sweep, const kernel::Function &f) const {
    const std::string kernel = f.name.substr(f.name.find('_') + 1);
    if (f.rowCounts.empty())
      return marchingLaunchBody(sweep, f, "", "break") + "  }\n";
    // One kernel per rows per thread: launchSweep{sweep}{Kernel}<kRows> launches it.
    std::string out = "    switch (l.rows) { // a count of kRowCounts (resolveLaunch checked it)\n";
    for (size_t i = 0; i < f.rowCounts.size(); ++i)
      out += fmt::format("    {}:\n      {}<{}>(a, l);\n      break;\n",
                         i + 1 == f.rowCounts.size() ? "default"
                                                     : fmt::format("case {}", f.rowCounts[i]),
                         rowsLauncherName(sweep, kernel), f.rowCounts[i]);
    return out + "    }\n    break;\n  }\n";
  }

  static std::string rowsLauncherName(int sweep, std::string kernel) {
    kernel[0] = char(std::toupper(static_cast<unsigned char>(kernel[0])));
    return fmt::format("launchSweep{}{}", sweep, kernel);
  }

  /// The launch of a marching kernel with kRows rows per thread, as a function template.
  std::string rowsLauncher(int sweep, const kernel::Function &f) const {
    const std::string kernel = f.name.substr(f.name.find('_') + 1);
    return fmt::format("/// Sweep {0}, {1} with kRows output rows per thread.\n"
                       "template <int kRows> void {2}(const Args &a, const Launch &l) {{\n",
                       sweep, kernel, rowsLauncherName(sweep, kernel)) +
           marchingLaunchBody(sweep, f, ", kRows", "return") + "}\n\n";
  }

  /// The statements of a marching kernel's launch; `templateArgs` follow kStageAuto's, and
  /// `done` ends the launch (break out of a switch, or return).
  std::string marchingLaunchBody(int sweep, const kernel::Function &f,
                                 const std::string &templateArgs, const std::string &done) const {
    std::map<int, int> fixed, autos; // table -> rows staged
    std::set<int> tileFields;
    visit(f.body, [&](const kernel::Node &n) {
      if (n.kind == kernel::NodeKind::StageRows)
        ++(n.dest == kernel::StageDest::Shared ? fixed : autos)[n.table];
      if (n.kind == kernel::NodeKind::StageTile)
        tileFields.insert(n.field);
    });
    const size_t tiles = tileFields.size() * size_t(f.tileBuffers);
    const std::string kernel = f.name.substr(f.name.find('_') + 1);
    const std::string in = done == "break" ? "    " : "  ";
    // A template argument list with a comma goes into the launch macro in parentheses.
    const std::string open = templateArgs.empty() ? "" : "(",
                      close = templateArgs.empty() ? "" : ")";
    std::string fixedRows, autoRows;
    for (const auto &[table, rows] : fixed)
      fixedRows +=
          fmt::format(" + sizeof(Real) * {} * std::size_t(a.{}.cols)", rows, names_.table(table));
    for (const auto &[table, rows] : autos)
      autoRows += fmt::format("{}sizeof(Real) * {} * std::size_t(a.{}.cols)",
                              autoRows.empty() ? "" : " + ", rows, names_.table(table));
    std::string out =
        fmt::format("{}// {} shared plane{}{}.\n", in, tiles, tiles == 1 ? "" : "s",
                    fixedRows.empty() ? "" : " and the table rows the plan put in shared memory");
    out += fmt::format("{}const std::size_t fixed = {} * l.tileBytes({}, {}){};\n", in, tiles, f.rx,
                       f.ry, fixedRows);
    if (!autoRows.empty())
      out += fmt::format(
          "{5}// The rows left to the backend go to shared memory if they fit the budget.\n"
          "{5}const std::size_t staged = fixed + {2};\n"
          "{5}if (staged <= l.sharedBudget) {{\n"
          "{5}  allowSharedBytes(sweep{0}_{1}<true{3}>, staged);\n"
          "{5}  STENCILC_LAUNCH({6}sweep{0}_{1}<true{3}>{7}, l.marchGrid, l.block, staged, "
          "l.stream)(a, l.box, l.nw);\n"
          "{5}  {4};\n"
          "{5}}}\n",
          sweep, kernel, autoRows, templateArgs, done, in, open, close);
    out += fmt::format("{3}requireShared(fixed, l, \"sweep {0}, {1}\");\n"
                       "{3}allowSharedBytes(sweep{0}_{1}<false{2}>, fixed);\n"
                       "{3}STENCILC_LAUNCH({4}sweep{0}_{1}<false{2}>{5}, l.marchGrid, l.block, "
                       "fixed, l.stream)(a, l.box, l.nw);\n",
                       sweep, kernel, templateArgs, in, open, close);
    return out + (done == "break" ? "    break;\n" : "");
  }

  std::string launcher(const kernel::SweepKernels &sweep) const {
    const int s = sweep.sweep;
    std::string out = fmt::format(R"(/// Sweep {0} with the chosen variant, on the launch's stream.
void launchSweep{0}(const Args &a, const Launch &l) {{
  switch (l.variant) {{
  case Variant::Gmem:
    STENCILC_LAUNCH(sweep{0}_gmem, l.pointGrid, l.block, 0, l.stream)(a, l.box);
    break;
  case Variant::Ro:
    STENCILC_LAUNCH(sweep{0}_ro, l.pointGrid, l.block, 0, l.stream)(a, l.box);
    break;
  case Variant::Traditional: {{
)",
                                  s);
    out += marchingLaunch(s, *sweep.find(fmt::format("sweep{}_traditional", s)));
    out += "  case Variant::Planes: {\n";
    const kernel::Function &planes = *sweep.find(entryOf(sweep, "planes"));
    if (planes.params.planesPerBlock) {
      out += marchingLaunch(s, planes);
      out += "  }\n  STENCILC_CUDA_CHECK(cudaGetLastError());\n}\n\n";
      return out;
    }
    out += "    // Nothing in this sweep spans planes: one thread per point does it.\n";
    out += fmt::format("    STENCILC_LAUNCH({}, l.pointGrid, l.block, 0, l.stream)(a, l.box);\n"
                       "    break;\n  }}\n  }}\n  STENCILC_CUDA_CHECK(cudaGetLastError());\n}}\n\n",
                       planes.name);
    return out;
  }

  /// The two-step kernel's launch: a ring of 2 rz + 1 widened planes per time field.
  std::string twoStepLauncher(const kernel::SweepKernels &sweep) const {
    const kernel::Function *f = sweep.find(fmt::format("sweep{}_twostep", sweep.sweep));
    if (!f)
      return "";
    const size_t rings = kernel::ringFields(s_, linear_, *f).size();
    return fmt::format(
        R"(/// Sweep {0}, two steps per launch, on the launch's stream.
void launchSweep{0}TwoSteps(const Args &a, const Args &next, const Launch &l,
                           const FirstStepAdd *adds, int addCount) {{
  // {1} ring{2} of {3} planes.
  const std::size_t rings = {1} * {3} * l.tileBytes({4}, {5});
  requireShared(rings, l, "sweep {0}, two steps per launch");
  allowSharedBytes({6}, rings);
  STENCILC_LAUNCH({6}, l.marchGrid, l.block, rings, l.stream)(a, next, l.box, l.nw, adds,
                                                             addCount);
  STENCILC_CUDA_CHECK(cudaGetLastError());
}}

)",
        sweep.sweep, rings, rings == 1 ? "" : "s", 2 * f->rz + 1, f->rx, f->ry, f->name);
  }

  static std::string entryOf(const kernel::SweepKernels &sweep, const std::string &variant) {
    for (const kernel::Variant &v : sweep.variants)
      if (v.name == variant)
        return v.entry;
    throw std::logic_error("no " + variant + " variant");
  }

  std::string sweeps() const {
    std::string out;
    for (const kernel::SweepKernels &sweep : module_.sweeps) {
      out += sweepBanner(sweep.sweep, decomposition_.sweeps[sweep.sweep].reason);
      for (const kernel::Function &f : sweep.functions)
        out += CudaPrinter(s_, linear_, names_).function(f);
      for (const kernel::Function &f : sweep.functions)
        if (!f.rowCounts.empty())
          out += rowsLauncher(sweep.sweep, f);
      out += launcher(sweep);
      out += twoStepLauncher(sweep);
    }
    return out;
  }

  //===--------------------------------------------------------------------===//
  // Entry points
  //===--------------------------------------------------------------------===//

  std::string runBody() const {
    std::string out;
    for (size_t sweep = 0; sweep < decomposition_.sweeps.size(); ++sweep)
      out += fmt::format("  launchSweep{}(a, l);\n", sweep);
    return out;
  }

  const CompiledStencil &compiled_;
  const ir::Stencil &s_;
  const LinearStencil &linear_;
  const Decomposition &decomposition_;
  const std::vector<GpuSweepPlan> &plans_;
  const kernel::KernelModule &module_;
  KernelNames names_;
  std::string kernel_;
  std::string source_;
  std::string target_;
};

} // namespace

std::vector<CudaSharedFootprint> cudaSharedFootprints(const CompiledStencil &compiled) {
  return CudaEmitter(compiled, CudaEmitOptions{}).footprints();
}

std::vector<GeneratedFile> emitCudaKernel(const CompiledStencil &compiled,
                                          const CudaEmitOptions &options) {
  return CudaEmitter(compiled, options).emit();
}

} // namespace stencilc::backend
