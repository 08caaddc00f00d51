//===- PlanTestSupport.h - Compile an example for the planning tests -------===//
//
// The plane-plan, planner and analysis tests check counts derived by hand for
// the shipped examples (docs/PERFORMANCE-MODEL.md), so they compile the real
// files in dsl-examples/ through the real pass pipeline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/Frontend.h"
#include "passes/Pipeline.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace stencilc::testing {

/// A compiled example; keeps the module its CompiledStencil points into.
struct CompiledExample {
  std::unique_ptr<ir::Module> module;
  std::vector<CompiledStencil> compiled;
  const CompiledStencil &only() const { return compiled.at(0); }
};

inline std::string readText(const std::filesystem::path &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Compiles `text`, optionally in double precision, with pipeline `options`.
inline CompiledExample compileText(const std::string &text, bool asDouble = false,
                                   const PipelineOptions &options = {}) {
  CompiledExample result;
  std::string errors;
  llvm::raw_string_ostream errs(errors);
  auto module = parseModuleFromString(text, "test.stencil", errs);
  EXPECT_TRUE(module.has_value()) << errs.str();
  if (!module)
    return result;
  result.module = std::make_unique<ir::Module>(std::move(*module));
  if (asDouble)
    for (ir::Stencil &s : result.module->stencils)
      s.elemType = ir::ElemType::Double;
  llvm::SourceMgr sm;
  DiagnosticEngine diag(sm, errs);
  auto compiled = runPipeline(*result.module, diag, options);
  EXPECT_TRUE(compiled.has_value()) << errs.str();
  if (compiled)
    result.compiled = std::move(*compiled);
  return result;
}

/// Compiles dsl-examples/<name>.stencil.
inline CompiledExample compileExample(const std::string &name, bool asDouble = false,
                                      const PipelineOptions &options = {}) {
  return compileText(
      readText(std::filesystem::path(STENCILC_SOURCE_DIR) / "dsl-examples" / (name + ".stencil")),
      asDouble, options);
}

} // namespace stencilc::testing
