//===- LinearFormVerifier.h - Consistency checks of linear forms ----------===//
//
// The `linearize` pass's verifier (passes/Pipeline.cpp runs it after the
// pass), in the manner of ir/Verifier.h: a failure is a compiler bug, so
// problems are plain messages naming the update, term or group.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"

#include <string>
#include <vector>

namespace stencilc {

/// Checks `linear` against `s`: one form per update writing its output, terms
/// reading Time fields within the radius in canonical order without
/// duplicates or zeros, factors and pointwise parts free of time fields and
/// sum variables, and groups that partition the terms consistently.
bool verifyLinearForm(const ir::Stencil &s, const LinearStencil &linear,
                      std::vector<std::string> &problems);

} // namespace stencilc
