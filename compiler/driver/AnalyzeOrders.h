//===- AnalyzeOrders.h - `stencilc analyze --orders`: the order sweep ------===//
//
//   stencilc analyze FILE... --orders 2,4,...,16 [--machine M] [--json]
//
// Per stencil and requested order: compulsory flops and bytes per point,
// their ratio, the roofline bound on the machine, the points per wavelength
// and the cost of one wavelength^d for one period; then the lowest order at
// which the stencil is compute-bound there (analysis/OrderSweep.h,
// docs/PERFORMANCE-MODEL.md §Order sweep).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/Machine.h"
#include "driver/Driver.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc::driver {

/// Runs the sweep over `files` with `options` (the plan, the element type),
/// re-deriving each at every order of `orders`. Returns the exit status:
/// 2 for a bad --orders, 1 when a file could not be swept.
int analyzeOrders(const std::vector<std::string> &files, const std::vector<int> &orders,
                  const std::optional<analysis::Machine> &machine, bool json, LoadOptions options);

} // namespace stencilc::driver
