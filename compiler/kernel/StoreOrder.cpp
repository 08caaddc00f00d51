//===- StoreOrder.cpp - When a point's stores must wait for its loads -----===//
//
// Every update of a stencil reads the fields as they were before the step
// (the reference evaluator's meaning, docs/DSL.md §Meaning). An output that
// overwrites a time field in place breaks that if it is stored before a later
// update of the same point reads the field: that update would see the new
// value. The lowerings then defer the point's stores until all its loads.
//
//===----------------------------------------------------------------------===//
#include "kernel/Lowering.h"

namespace stencilc::kernel {

bool storeOverwritesLaterRead(const ir::Stencil &stencil, const LinearStencil &linear) {
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const int overwritten = stencil.fields[linear.updates[u].output].overwrites;
    if (overwritten < 0)
      continue;
    for (size_t v = u + 1; v < linear.updates.size(); ++v)
      for (const Term &t : linear.updates[v].terms)
        if (t.field == overwritten)
          return true;
  }
  return false;
}

} // namespace stencilc::kernel
