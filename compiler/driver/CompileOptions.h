//===- CompileOptions.h - The options of the commands that compile ---------===//
//
// check, dump-ir, gen, dump-kernel and bench run .stencil files through the
// pass pipeline. Each of their <Name>Command.cpp files builds one
// CompileCommandLine for its subcommand, so the input files, the plan, the
// element type, --z-planes and, where a command takes them, --dump-after,
// --explain, --adjoint, --backend and --arch are spelled, described and
// checked the same way in all of them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Driver.h"
#include "driver/PlanOptions.h"

#include "llvm/Support/CommandLine.h"

#include <functional>
#include <optional>
#include <string>

namespace stencilc::driver {

enum class ElemTypeOverride { AsDeclared, Float, Double };
enum class Backend { Cpu, Cuda };

/// What `gen` and `dump-kernel` generate for: the plan target, and with
/// --backend cuda the GPU architecture, which the plan follows unless
/// --plan-target names another target (a CPU-vs-GPU planning experiment).
struct GenTarget {
  std::string plan;
  std::string arch; ///< empty for --backend cpu
  /// The target line of the generated CUDA files' header.
  std::string description() const;
};

/// The options of one compiling subcommand.
class CompileCommandLine {
public:
  /// The options beyond the input files, the plan, --type and --z-planes.
  enum Extra : unsigned {
    DumpAfter = 1u << 0,      ///< --dump-after
    Explain = 1u << 1,        ///< --explain
    Adjoint = 1u << 2,        ///< --adjoint
    BackendAndArch = 1u << 3, ///< --backend and --arch
  };

  /// Registers the options for `command`: the common ones and the `extras`
  /// (a set of Extra bits).
  CompileCommandLine(llvm::cl::SubCommand &command, unsigned extras);

  llvm::cl::list<std::string> inputFiles;
  PlanCommandLine plan;
  llvm::cl::opt<ElemTypeOverride> elemTypeOverride;
  llvm::cl::opt<int> outputPlanesPerLoop;
  std::optional<llvm::cl::list<std::string>> dumpAfter;
  std::optional<llvm::cl::opt<bool>> explain;
  std::optional<llvm::cl::opt<bool>> adjoint;
  std::optional<llvm::cl::opt<Backend>> backend;
  std::optional<llvm::cl::opt<std::string>> cudaArch;

  /// The checks every compiling command makes before anything else:
  /// --dump-after names passes and --z-planes is in range. Reports the first
  /// bad value and returns false.
  bool check() const;

  /// --type, or nullopt for the stencil's own.
  std::optional<ir::ElemType> elemType() const;

  /// Whether --backend cuda was given.
  bool cuda() const { return backend && backend->getValue() == Backend::Cuda; }

  /// The load options, planning for `defaultTarget` unless --plan-target
  /// says otherwise; nullopt after reporting a bad option.
  std::optional<LoadOptions> loadOptions(const std::string &defaultTarget) const;

  /// The target of `gen` and `dump-kernel` from --backend, --arch and
  /// --plan-target; `resourceUsage` is gen's --resource-usage, which needs
  /// --backend cuda. Nullopt after reporting a bad combination.
  std::optional<GenTarget> genTarget(bool resourceUsage) const;

  /// Prints `print` of every stencil of every input file, a blank line
  /// between stencils of one file: 0, or 1 when a file did not load, or what
  /// `print` returned when it was not 0 (it stops there).
  int printEachStencil(const LoadOptions &options,
                       const std::function<int(const CompiledStencil &)> &print) const;
};

} // namespace stencilc::driver
