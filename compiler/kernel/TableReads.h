//===- TableReads.h - The table rows a set of coefficient groups reads -----===//
#pragma once

#include "ir/linear/LinearForm.h"

#include <map>
#include <utility>
#include <vector>

namespace stencilc::kernel {

/// Per (table, index field) column: the lowest and highest row read.
using ColumnRows = std::map<std::pair<int, int>, std::pair<int, int>>;

/// Adds the table rows that `groups` of `form` read through their factors
/// and, with `pointwise`, through the form's pointwise part.
void addTableReads(const LinearForm &form, const std::vector<int> &groups, bool pointwise,
                   ColumnRows &columns);

} // namespace stencilc::kernel
