//===- KernelInputs.h - The reference evaluator's data in a kernel's storage -===//
//
// Every generated kernel is checked against the reference evaluator on the same
// random data. The evaluator holds it in double precision; a generated kernel
// runs on rt::KernelData in its own element type. These helpers carry the
// inputs across and keep the two in step over several time steps. Used by the
// CPU kernel tests, the CUDA kernel tests (through the emulator) and the GPU
// benchmark, which must all do it the same way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"

#include <stencilc/KernelData.h>

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace stencilc::eval {

/// The one stencil of the .stencil file at `path`, with the element type of
/// kernel `k` (a kernel may be generated in another precision than declared).
inline ir::Stencil loadStencilOfKernel(const std::string &path, const rt::KernelInfo &k) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw std::runtime_error("cannot read " + path);
  auto module = parseModuleFromString((*buffer)->getBuffer(), path, llvm::errs());
  if (!module)
    throw std::runtime_error("cannot compile " + path);
  // A file of several stencils (a program lifted nest by nest) holds the kernel's by name.
  auto named = std::find_if(module->stencils.begin(), module->stencils.end(),
                            [&](const ir::Stencil &s) { return s.name == k.stencil; });
  if (module->stencils.size() == 1)
    named = module->stencils.begin();
  if (named == module->stencils.end())
    throw std::runtime_error(path + " has no stencil named " + k.stencil);
  ir::Stencil s = std::move(*named);
  s.elemType = std::string(k.elemType) == "float" ? ir::ElemType::Float : ir::ElemType::Double;
  return s;
}

/// Copies the evaluator's (double) inputs into the kernel's storage, converting
/// types: every field but the outputs (written by the kernel; in place an output
/// shares its storage with an input), every table, every scalar.
template <typename Real> void copyInputs(EvalData &ref, rt::KernelData &data) {
  const rt::KernelInfo &info = data.info();
  for (std::size_t f = 0; f < info.fields.size(); ++f) {
    if (ref.roles[f] == ir::FieldRole::Output)
      continue;
    std::visit(
        [&](auto &grid) {
          using T = typename std::decay_t<decltype(grid)>::value_type;
          if (ref.roles[f] == ir::FieldRole::Index)
            ref.indexGrids[f]->forEachPointWithHalo(
                [&](int i, int j, int k) { grid(i, j, k) = T((*ref.indexGrids[f])(i, j, k)); });
          else
            ref.grids[f]->forEachPointWithHalo(
                [&](int i, int j, int k) { grid(i, j, k) = T((*ref.grids[f])(i, j, k)); });
        },
        data.field(int(f)));
  }
  for (std::size_t t = 0; t < info.tables.size(); ++t) {
    auto &dst = data.table<Real>(int(t));
    for (int r = 0; r < dst.rows(); ++r)
      for (int c = 0; c < dst.cols(); ++c)
        dst(r, c) = Real((*ref.tables[t])(r, c));
  }
  data.scalars() = ref.scalars;
}

/// Moves the evaluator's time levels on exactly as the kernel's rotate() does
/// (`out advances F overwrites G`), never in place.
inline void rotateReference(const rt::KernelInfo &info, EvalData &ref) {
  for (std::size_t o = 0; o < info.fields.size(); ++o) {
    const rt::KernelFieldInfo &out = info.fields[o];
    if (out.advances < 0)
      continue;
    auto &O = ref.grids[o], &F = ref.grids[out.advances];
    if (out.overwrites < 0) {
      std::swap(O, F);
      continue;
    }
    auto &G = ref.grids[out.overwrites];
    std::swap(G, F); // G = old F, F = old G
    std::swap(F, O); // F = old O, O = old G
  }
}

/// Zeroes the halo of `g` around `interior`: the boundary the evaluator assumes.
template <typename T> void zeroHalo(rt::Grid<T> &g, const rt::GridShape &interior) {
  g.forEachPointWithHalo([&](int i, int j, int k) {
    if (i < 0 || i >= interior.nx || j < 0 || j >= interior.ny || k < 0 || k >= interior.nz)
      g(i, j, k) = T(0);
  });
}

} // namespace stencilc::eval
