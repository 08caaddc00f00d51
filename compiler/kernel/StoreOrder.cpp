//===- StoreOrder.cpp - When a point's stores must wait for its loads -----===//
//
// Every update of a stencil reads the fields as they were before the step
// (the reference evaluator's meaning, docs/DSL.md §Meaning). An output that
// overwrites a time field in place breaks that if it is stored before a later
// update of the same point reads the field: that update would see the new
// value. The lowerings then defer the point's stores until all its loads.
//
// A GPU kernel defers them wherever a point has several outputs, too. Its
// field pointers may alias, so the compiler keeps every load after a store
// behind it, and a store waits for the loads its value needs: each update's
// loads would be a memory round trip of its own (lwc_elastic's three, its
// rho, lambda and mu loaded again after each store), where the GPU model
// takes a point's loads as one (docs/PERFORMANCE-MODEL.md §GPU model).
// Deferring the stores changes no value: it only moves them.
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

bool gpuStoresAfterLoads(const ir::Stencil &stencil, const LinearStencil &linear) {
  return linear.updates.size() > 1 || storeOverwritesLaterRead(stencil, linear);
}

} // namespace stencilc::kernel
