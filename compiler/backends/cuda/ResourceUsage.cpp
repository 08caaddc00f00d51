//===- ResourceUsage.cpp --------------------------------------------------===//
#include "backends/cuda/ResourceUsage.h"

#include "backends/cuda/CudaEmitter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>

#include <map>
#include <regex>

namespace stencilc::backend {

namespace {

/// The sweep and variant of a generated sweep kernel's (mangled) name, as the
/// rows name them ("planes/ro-table": the instance that reads the rows the plan
/// left to the backend through the read-only cache); false for other functions.
bool sweepKernel(const std::string &name, KernelResources &row) {
  static const std::regex kernelName(
      R"(sweep(\d+)_(gmem|ro|traditional|planes|twostep)(ILb([01])E(Li(\d+)E)?)?)");
  std::smatch k;
  if (!std::regex_search(name, k, kernelName))
    return false;
  row.sweep = std::stoi(k[1]);
  row.variant = k[2];
  row.rows = k[6].matched ? std::stoi(k[6]) : 1;
  if ((row.variant == "planes" || row.variant == "traditional") && k[4] == "0")
    row.variant += "/ro-table";
  return true;
}

} // namespace

std::vector<KernelResources> parsePtxasOutput(const std::string &text) {
  static const std::regex entry(R"(Compiling entry function '([^']+)' for '(sm_\w+)')");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex smem(R"((\d+) bytes smem)");
  std::vector<KernelResources> rows;
  bool inKernel = false;
  llvm::SmallVector<llvm::StringRef, 64> lines;
  llvm::StringRef(text).split(lines, '\n');
  for (llvm::StringRef lineRef : lines) {
    std::string line = lineRef.str();
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      KernelResources r;
      inKernel = sweepKernel(m[1], r);
      if (!inKernel)
        continue;
      r.arch = m[2];
      rows.push_back(r);
      continue;
    }
    if (!inKernel)
      continue;
    if (std::regex_search(line, m, frame)) {
      rows.back().stackBytes = std::stoi(m[1]);
      rows.back().spillStores = std::stoi(m[2]);
      rows.back().spillLoads = std::stoi(m[3]);
    }
    if (std::regex_search(line, m, used)) {
      rows.back().registers = std::stoi(m[1]);
      if (std::regex_search(line, m, smem))
        rows.back().sharedBytes = std::stol(m[1]);
      inKernel = false; // "Used ..." closes an entry's report
    }
  }
  return rows;
}

std::vector<KernelResources> countPtxInstructions(const std::string &ptx) {
  static const std::regex entry(R"(^(\.visible )?\.entry (\S+)\()");
  static const std::regex instruction(R"(^\s+(@!?%\w+\s+)?[a-z][\w.]*[\s;])");
  static const std::regex fp64(
      R"(^\s+(@!?%\w+\s+)?(add|sub|mul|fma|mad|div|rcp|sqrt|neg|abs|min|max|setp)(\.\w+)*\.f64[\s;])");
  std::vector<KernelResources> rows;
  bool inKernel = false, inBody = false;
  llvm::SmallVector<llvm::StringRef, 64> lines;
  llvm::StringRef(ptx).split(lines, '\n');
  for (llvm::StringRef lineRef : lines) {
    std::string line = lineRef.str();
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      KernelResources r;
      inKernel = sweepKernel(m[2], r);
      inBody = false;
      if (!inKernel)
        continue;
      rows.push_back(r);
      continue;
    }
    if (!inKernel)
      continue;
    if (line == "{") {
      inBody = true;
      continue;
    }
    if (line == "}") {
      inKernel = inBody = false;
      continue;
    }
    if (inBody && std::regex_search(line, instruction)) {
      ++rows.back().ptxInstructions;
      if (std::regex_search(line, fp64))
        ++rows.back().ptxFp64Instructions;
    }
  }
  return rows;
}

std::string findNvcc() {
  if (auto onPath = llvm::sys::findProgramByName("nvcc"))
    return *onPath;
  const char *standard = "/usr/local/cuda/bin/nvcc";
  return llvm::sys::fs::can_execute(standard) ? standard : "";
}

namespace {
/// Dynamic shared memory the launcher asks for at the report's launch.
long dynamicSharedBytes(const CudaSharedFootprint &f, const std::string &variant, int rowsPerThread,
                        int elemBytes, const ResourceUsageOptions &o) {
  auto planes = [&](int n, int rx, int ry) {
    return long(n) * (o.blockX + 2 * rx) * (o.blockY * rowsPerThread + 2 * ry);
  };
  long rows = long(o.tableColumns);
  // Both marching kernels stage the rows the plan put in shared memory, and with
  // kStageAuto (no "/ro-table") the rows it left to the backend as well.
  if (variant == "traditional")
    return elemBytes * (planes(f.traditionalPlanes, f.traditionalRx, f.traditionalRy) +
                        (f.stagedRows + f.autoRows) * rows);
  if (variant == "traditional/ro-table")
    return elemBytes *
           (planes(f.traditionalPlanes, f.traditionalRx, f.traditionalRy) + f.stagedRows * rows);
  if (variant == "planes")
    return elemBytes *
           (planes(f.planesPlanes, f.planesRx, f.planesRy) + (f.stagedRows + f.autoRows) * rows);
  if (variant == "planes/ro-table")
    return elemBytes * (planes(f.planesPlanes, f.planesRx, f.planesRy) + f.stagedRows * rows);
  if (variant == "twostep") // tables through the read-only cache
    return elemBytes * planes(f.twoStepPlanes, f.twoStepRx, f.twoStepRy);
  return 0;
}
} // namespace

bool measureResources(const CompiledStencil &compiled, const ResourceUsageOptions &options,
                      std::vector<KernelResources> &rows, std::string &error) {
  const ir::Stencil &s = *compiled.stencil;
  const std::string type = ir::elemTypeName(s.elemType);
  const std::string name = s.name + "_" + type;
  CudaEmitOptions emit;
  emit.kernelName = name;
  emit.target = options.target;
  if (std::error_code ec = llvm::sys::fs::create_directories(options.workDir)) {
    error = "cannot create '" + options.workDir + "': " + ec.message();
    return false;
  }
  for (const GeneratedFile &file : emitCudaKernel(compiled, emit)) {
    llvm::SmallString<256> path(options.workDir);
    llvm::sys::path::append(path, file.name);
    std::error_code ec;
    llvm::raw_fd_ostream out(path, ec);
    if (ec) {
      error = "cannot write '" + std::string(path) + "': " + ec.message();
      return false;
    }
    out << file.text;
  }
  std::vector<CudaSharedFootprint> footprints = cudaSharedFootprints(compiled);
  for (const std::string &arch : options.archs) {
    llvm::SmallString<256> source(options.workDir), object(options.workDir), log(options.workDir);
    llvm::sys::path::append(source, name + ".cu");
    llvm::sys::path::append(object, name + "_" + arch + ".o");
    llvm::sys::path::append(log, name + "_" + arch + ".ptxas.txt");
    std::string gencode =
        fmt::format("arch=compute_{0},code={1}", llvm::StringRef(arch).drop_front(3).str(), arch);
    std::vector<llvm::StringRef> argv = {options.nvcc, "-std=c++20",
                                         "-c",         source,
                                         "-o",         object,
                                         "-I",         options.runtimeInclude,
                                         "-I",         options.workDir,
                                         "-gencode",   gencode,
                                         "-Xptxas",    "-v"};
    if (options.countInstructions) // the PTX nvcc writes on the way, kept
      argv.insert(argv.end(), {"--keep", "--keep-dir", options.workDir});
    llvm::Optional<llvm::StringRef> redirects[] = {llvm::None, llvm::StringRef(log),
                                                   llvm::StringRef(log)};
    std::string message;
    int status =
        llvm::sys::ExecuteAndWait(options.nvcc, argv, llvm::None, redirects, 0, 0, &message);
    auto text = llvm::MemoryBuffer::getFile(log);
    if (status != 0 || !text) {
      error = fmt::format("nvcc failed on {} for {} (exit {}{}); its output is in {}",
                          std::string(source), arch, status, message.empty() ? "" : ": " + message,
                          std::string(log));
      return false;
    }
    std::vector<KernelResources> found = parsePtxasOutput((*text)->getBuffer().str());
    if (found.empty()) {
      error = "ptxas reported no kernels for " + std::string(source) + " (see " + std::string(log) +
              ")";
      return false;
    }
    std::vector<KernelResources> counted;
    if (options.countInstructions) {
      llvm::SmallString<256> ptx(options.workDir);
      llvm::sys::path::append(ptx, name + ".ptx");
      auto ptxText = llvm::MemoryBuffer::getFile(ptx);
      if (!ptxText) {
        error = "nvcc --keep left no PTX at " + std::string(ptx);
        return false;
      }
      counted = countPtxInstructions((*ptxText)->getBuffer().str());
    }
    for (KernelResources &r : found)
      for (const KernelResources &c : counted)
        if (c.sweep == r.sweep && c.variant == r.variant && c.rows == r.rows) {
          r.ptxInstructions = c.ptxInstructions;
          r.ptxFp64Instructions = c.ptxFp64Instructions;
        }
    for (KernelResources &r : found) {
      // With no rows left to the budget the launcher has one kernel of each
      // marching variant, the <false> instance, whatever rows it stages.
      if (footprints.at(r.sweep).autoRows == 0 &&
          (r.variant == "planes/ro-table" || r.variant == "traditional/ro-table"))
        r.variant.resize(r.variant.size() - std::string("/ro-table").size());
      r.stencil = s.name;
      r.elemType = type;
      r.sharedBytes += dynamicSharedBytes(footprints.at(r.sweep), r.variant, r.rows,
                                          ir::elemTypeBytes(s.elemType), options);
      rows.push_back(r);
    }
  }
  return true;
}

void printResourceTable(const std::vector<KernelResources> &rows,
                        const ResourceUsageOptions &options, llvm::raw_ostream &os) {
  static const std::map<std::string, int> variantOrder = {
      {"gmem", 0},        {"ro", 1},
      {"traditional", 2}, {"traditional/ro-table", 3},
      {"planes", 4},      {"planes/ro-table", 5},
      {"twostep", 6}};
  std::vector<KernelResources> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
    const int av = variantOrder.at(a.variant), bv = variantOrder.at(b.variant);
    return std::tie(a.stencil, a.elemType, a.arch, a.sweep, av, a.rows) <
           std::tie(b.stencil, b.elemType, b.arch, b.sweep, bv, b.rows);
  });
  os << fmt::format("Shared memory per block at a {}x{} block and Nd = {} table columns; "
                    "the shared-memory budget is {} bytes.\n\n",
                    options.blockX, options.blockY, options.tableColumns, options.sharedBudget);
  os << "| stencil | type | arch | sweep | variant | rows/thread | registers | spill stores (B) | "
        "spill loads (B) | shared/block (B) |\n"
        "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const KernelResources &r : sorted)
    os << fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {}{} |\n", r.stencil,
                      r.elemType, r.arch, r.sweep, r.variant, r.rows, r.registers, r.spillStores,
                      r.spillLoads, r.sharedBytes,
                      r.sharedBytes > options.sharedBudget ? " (over budget)" : "");
}

} // namespace stencilc::backend
