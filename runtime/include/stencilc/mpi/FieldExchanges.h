//===- FieldExchanges.h - The halo exchanges of a kernel's fields ---------===//
//
// DistributedKernel (one step per exchange) and DeepHaloKernel (T steps per
// exchange) both exchange several fields of one argument list after their
// steps: every field's messages are started before any is waited for, so the
// fields' messages are in flight together.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Kernel.h"
#include "stencilc/mpi/HaloExchange.h"

#include <memory>
#include <vector>

namespace stencilc::rt::mpi {

class FieldExchanges {
public:
  /// Exchange field `field` of the arguments with `halo`.
  void add(int field, std::unique_ptr<HaloExchange> halo) {
    entries_.push_back({field, std::move(halo)});
  }

  /// Packs and sends every field's cells and posts the receives.
  void start(const ErasedArgs &local) {
    for (Entry &e : entries_)
      e.halo->start(local.fields[std::size_t(e.field)]);
  }
  /// Waits for every field's messages and unpacks them into the halos.
  void finish(const ErasedArgs &local) {
    for (Entry &e : entries_)
      e.halo->finish(local.fields[std::size_t(e.field)]);
  }

  /// Messages this rank sends per exchange, over every field.
  int sends() const {
    int n = 0;
    for (const Entry &e : entries_)
      n += e.halo->sends();
    return n;
  }
  /// The exchanged fields' ids, in the order they were added.
  std::vector<int> fields() const {
    std::vector<int> ids;
    for (const Entry &e : entries_)
      ids.push_back(e.field);
    return ids;
  }

private:
  struct Entry {
    int field;
    std::unique_ptr<HaloExchange> halo;
  };
  std::vector<Entry> entries_;
};

} // namespace stencilc::rt::mpi
