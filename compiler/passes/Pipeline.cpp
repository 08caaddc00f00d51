//===- Pipeline.cpp -------------------------------------------------------===//
#include "passes/Pipeline.h"

#include "ir/Printer.h"
#include "ir/Verifier.h"
#include "ir/linear/LinearFormPrinter.h"
#include "ir/linear/LinearFormVerifier.h"

#include "passes/Linearize.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/WithColor.h"

#include <fmt/format.h>

#include <functional>

namespace stencilc {

namespace {

struct Pass {
  std::string name;
  /// Runs the pass on one stencil; false after reporting an error.
  std::function<bool(CompiledStencil &, const PipelineOptions &, DiagnosticEngine &)> run;
  /// Prints the stencil as the pass left it.
  std::function<void(const CompiledStencil &, llvm::raw_ostream &)> dump;
  /// Checks the pass's output, appending problems.
  std::function<bool(const CompiledStencil &, std::vector<std::string> &)> verify;
  /// Says what the pass decided and why (--explain).
  std::function<void(const CompiledStencil &, const PipelineOptions &, llvm::raw_ostream &)>
      explain;
};

/// The command line wins over the DSL's `plan` clause.
PlanOverride planOverride(const ir::Stencil &s, const PipelineOptions &options) {
  PlanOverride o;
  if (options.forceSplit > 0) {
    o.sweeps = options.forceSplit;
    o.origin = "--split";
  } else if (s.plan.sweeps > 0) {
    o.sweeps = s.plan.sweeps;
    o.origin = "the plan clause";
  }
  using Tables = ir::PlanDirective::Tables;
  if (options.forceTableSpace)
    o.space = options.forceTableSpace;
  else if (s.plan.tables != Tables::Auto)
    o.space = s.plan.tables == Tables::Shared     ? TableSpace::Shared
              : s.plan.tables == Tables::ReadOnly ? TableSpace::ReadOnly
                                                  : TableSpace::Global;
  return o;
}

bool runDecompose(CompiledStencil &c, const PipelineOptions &options, DiagnosticEngine &diag) {
  PlanOverride forced = planOverride(*c.stencil, options);
  std::string why;
  if (planDecomposition(*c.stencil, c.linear, c.planePlan, options.target, forced, c.planReport,
                        why)) {
    c.decomposition = c.planReport.candidates[c.planReport.chosen].decomposition;
    return true;
  }
  bool fromClause = options.forceSplit <= 0;
  diag.error(fromClause ? c.stencil->plan.sweepsLoc : c.stencil->loc,
             "stencil '" + c.stencil->name + "': " + why +
                 (fromClause ? " (plan sweeps)" : " (--split)"));
  return false;
}

/// The pass that lowers the sweep plan to the kernel IR of `target` into `module`.
Pass lowering(const char *name, kernel::Target target,
              kernel::KernelModule CompiledStencil::*module) {
  return {name,
          [target, module](CompiledStencil &c, const PipelineOptions &, DiagnosticEngine &) {
            c.*module = kernel::lowerToKernels(c, target);
            return true;
          },
          [module](const CompiledStencil &c, llvm::raw_ostream &os) {
            kernel::printKernels(*c.stencil, c.*module, os);
          },
          [module](const CompiledStencil &c, std::vector<std::string> &problems) {
            return kernel::verifyKernels(c, c.*module, problems);
          },
          [module](const CompiledStencil &c, const PipelineOptions &, llvm::raw_ostream &os) {
            kernel::explainKernels(*c.stencil, c.*module, os);
          }};
}

const std::vector<Pass> &passes() {
  static const std::vector<Pass> list = {
      {"frontend",
       [](CompiledStencil &, const PipelineOptions &, DiagnosticEngine &) { return true; },
       [](const CompiledStencil &c, llvm::raw_ostream &os) { ir::printStencil(*c.stencil, os); },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return ir::verifyStencil(*c.stencil, problems);
       },
       [](const CompiledStencil &c, const PipelineOptions &, llvm::raw_ostream &os) {
         const ir::Stencil &s = *c.stencil;
         os << fmt::format("frontend: stencil '{}': {}d, {}, radius {}, {} fields, {} point "
                           "sets, {} tables, {} updates\n",
                           s.name, s.dims, ir::elemTypeName(s.elemType), s.radius, s.fields.size(),
                           s.pointSets.size(), s.tables.size(), s.updates.size());
       }},
      {"linearize",
       [](CompiledStencil &c, const PipelineOptions &, DiagnosticEngine &diag) {
         auto linear = linearize(*c.stencil, diag);
         if (!linear)
           return false;
         c.linear = std::move(*linear);
         return true;
       },
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         printStencilWithLinearForm(*c.stencil, c.linear, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return verifyLinearForm(*c.stencil, c.linear, problems);
       },
       [](const CompiledStencil &c, const PipelineOptions &, llvm::raw_ostream &os) {
         for (const LinearForm &form : c.linear.updates)
           os << fmt::format("linearize: {} = {} terms in {} coefficient groups (terms with "
                             "equal factors and |coefficient| share one multiply){}\n",
                             c.stencil->fields[form.output].name, form.terms.size(),
                             form.groups.size(), form.pointwise ? " plus a pointwise part" : "");
       }},
      {"plane-plan",
       [](CompiledStencil &c, const PipelineOptions &, DiagnosticEngine &) {
         c.planePlan = planPlanes(c.linear);
         return true;
       },
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         printStencilWithLinearForm(*c.stencil, c.linear, os);
         printPlanePlan(*c.stencil, c.planePlan, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return verifyPlanePlan(c.linear, c.planePlan, problems);
       },
       [](const CompiledStencil &c, const PipelineOptions &, llvm::raw_ostream &os) {
         const PlanePlan &p = c.planePlan;
         os << fmt::format("plane-plan: {} planes (dz {}..{}); multi-to-one keeps {} register "
                           "queue entries for {} off-plane columns and loads {} values per "
                           "point; one-to-multi keeps {} partial sums and loads {} per point\n",
                           p.planes.size(), p.minDz, p.maxDz, p.traditionalRegisters,
                           p.columns.size(), p.traditionalLoads, p.planesRegisters, p.planesLoads);
       }},
      {"decompose", runDecompose,
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         printStencilWithLinearForm(*c.stencil, c.linear, os);
         printDecomposition(*c.stencil, c.linear, c.decomposition, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return verifyDecomposition(c.linear, c.decomposition, problems);
       },
       [](const CompiledStencil &c, const PipelineOptions &options, llvm::raw_ostream &os) {
         explainPlan(*c.stencil, options.target, c.planReport, os);
       }},
      {"sweep-plan",
       [](CompiledStencil &c, const PipelineOptions &options, DiagnosticEngine &) {
         c.sweepPlan = planSweeps(*c.stencil, c.linear, c.decomposition, options.target,
                                  options.outputPlanesPerLoop, options.loadAhead);
         return true;
       },
       [](const CompiledStencil &c, llvm::raw_ostream &os) {
         printStencilWithLinearForm(*c.stencil, c.linear, os);
         printDecomposition(*c.stencil, c.linear, c.decomposition, os);
         printSweepPlan(*c.stencil, c.linear, c.sweepPlan, os);
       },
       [](const CompiledStencil &c, std::vector<std::string> &problems) {
         return verifySweepPlan(*c.stencil, c.linear, c.decomposition, c.sweepPlan, problems);
       },
       [](const CompiledStencil &c, const PipelineOptions &options, llvm::raw_ostream &os) {
         explainSweepPlan(*c.stencil, c.sweepPlan, options.target, os);
       }},
      lowering("lower-cpu", kernel::Target::Cpu, &CompiledStencil::cpuKernels),
      lowering("lower-cuda", kernel::Target::Cuda, &CompiledStencil::cudaKernels),
  };
  return list;
}

} // namespace

const std::vector<std::string> &pipelinePassNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const Pass &p : passes())
      n.push_back(p.name);
    return n;
  }();
  return names;
}

std::optional<std::vector<CompiledStencil>>
runPipeline(const ir::Module &module, DiagnosticEngine &diag, const PipelineOptions &options) {
  std::vector<CompiledStencil> compiled;
  for (const ir::Stencil &stencil : module.stencils) {
    compiled.emplace_back();
    compiled.back().stencil = &stencil;
  }

  for (const Pass &pass : passes()) {
    bool dump = llvm::is_contained(options.dumpAfter, pass.name);
    for (CompiledStencil &c : compiled) {
      if (!pass.run(c, options, diag))
        return std::nullopt;
      std::vector<std::string> problems;
      if (!pass.verify(c, problems)) {
        for (const std::string &p : problems)
          llvm::WithColor::error(llvm::errs(), "stencilc")
              << "internal error: IR verifier failed after '" << pass.name << "' on stencil '"
              << c.stencil->name << "': " << p << "\n";
        return std::nullopt;
      }
      if (options.explainStream)
        pass.explain(c, options, *options.explainStream);
      if (dump) {
        *options.dumpStream << "// ----- IR after " << pass.name << " -----\n";
        pass.dump(c, *options.dumpStream);
      }
    }
  }
  return compiled;
}

} // namespace stencilc
