//===- Decompose.h - Split a stencil into sub-stencil sweeps ---------------===//
//
// By associativity an update  out = sum_g group_g  can run as several sweeps:
// the first writes its groups' sum, later ones add theirs (docs/DESIGN.md
// §Decompose, "stencil decomposition" [1, 2]). A sub-stencil is the set of coefficient groups of
// each update that one sweep evaluates. Centre-only groups of fields nobody reads elsewhere (`-
// p_prev`) and pointwise parts always go to the first sweep, so an output that overwrites such a
// field in place reads it before writing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace stencilc {

/// Where a GPU kernel keeps a coefficient group's table columns (the CPU
/// backends ignore it): docs/DESIGN.md §Decompose [2] puts what fits in shared memory and
/// the rest behind the read-only cache.
enum class TableSpace {
  Auto,     ///< the backend decides
  Shared,   ///< staged into shared memory per block
  ReadOnly, ///< read through the read-only data cache (__ldg)
  Global,   ///< plain global loads
};

struct SubStencil {
  /// groups[u]: indices into linear.updates[u].groups evaluated by this sweep, ascending.
  std::vector<std::vector<int>> groups;
  /// tableSpace[u][i]: where groups[u][i]'s table lives on a GPU; empty means Auto for all.
  std::vector<std::vector<TableSpace>> tableSpace;
  /// Why this sweep exists (printed by --dump-after and --explain).
  std::string reason;
};

struct Decomposition {
  std::vector<SubStencil> sweeps; ///< in execution order; never empty
};

/// True for a group that reads only offset 0 of fields that the update reads
/// nowhere else: a kernel applies it when it stores the output point.
bool isCentreOnlyGroup(const LinearForm &form, const CoefGroup &group);

/// One sweep holding every group.
Decomposition wholeStencil(const LinearStencil &linear);

/// `parts` sweeps: centre-only groups in the first, the other groups of every
/// update dealt out in order into `parts` contiguous runs of about equal term
/// counts. Fails (returns false, `why` set) when there are fewer splittable
/// groups than parts.
bool splitStencil(const LinearStencil &linear, int parts, Decomposition &out, std::string &why);

/// Checks that every group of every update is in exactly one sweep and that the
/// centre-only groups are in the first.
bool verifyDecomposition(const LinearStencil &linear, const Decomposition &d,
                         std::vector<std::string> &problems);

void printDecomposition(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                        llvm::raw_ostream &os);

} // namespace stencilc
