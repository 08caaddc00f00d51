//===- HaloExchange.cpp ---------------------------------------------------===//
#include "stencilc/mpi/HaloExchange.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace stencilc::rt::mpi {

Reach Reach::merged(const Reach &other) const {
  Reach r;
  for (int i = 0; i < 6; ++i)
    r.cells[i] = std::max(cells[i], other.cells[i]);
  r.neighbours = neighbours | other.neighbours;
  return r;
}

namespace {

/// Cells [lo, hi) along one axis of `n` interior points for direction d:
/// what a rank sends toward d (its own cells the neighbour there reads) or
/// receives from d (the halo cells it reads there).
std::pair<int, int> span(int d, int n, int below, int above, bool receive) {
  if (d == 0)
    return {0, n};
  if (receive)
    return d > 0 ? std::pair{n, n + above} : std::pair{-below, 0};
  // The neighbour above reads down into this rank, the one below reads up.
  return d > 0 ? std::pair{n - below, n} : std::pair{0, above};
}

} // namespace

HaloExchange::HaloExchange(const DomainSplit &d, const Reach &reach, int elementBytes, int tag,
                           const Allocate &transferMemory)
    : elementBytes_(elementBytes) {
  const Extent local = d.local();
  const int n[3] = {local.nx, local.ny, local.nz};
  // Tags keep apart the messages a pair of ranks swaps (one per direction
  // between them, and one per exchanged field).
  auto tagOf = [&](int dx, int dy, int dz) { return tag * 27 + neighbourBit(dx, dy, dz); };
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        if (!dx && !dy && !dz)
          continue;
        const int peer = d.neighbour(dx, dy, dz);
        if (peer == MPI_PROC_NULL)
          continue;
        const int dir[3] = {dx, dy, dz};
        auto box = [&](bool receive) {
          Box b;
          std::tie(b.x0, b.x1) = span(dir[0], n[0], reach.below(0), reach.above(0), receive);
          std::tie(b.y0, b.y1) = span(dir[1], n[1], reach.below(1), reach.above(1), receive);
          std::tie(b.z0, b.z1) = span(dir[2], n[2], reach.below(2), reach.above(2), receive);
          return b;
        };
        // Receive from (dx, dy, dz) what this rank's reads reach there; send
        // toward it what the neighbour's reads reach, direction (-dx, -dy, -dz) from it.
        // Tags name the direction from sender to receiver: the sender at
        // (dx, dy, dz) from here tags toward this rank, (-dx, -dy, -dz).
        if (reach.neighbours >> neighbourBit(dx, dy, dz) & 1) {
          receives_.push_back({box(true), peer, tagOf(-dx, -dy, -dz), {}, nullptr});
        }
        if (reach.neighbours >> neighbourBit(-dx, -dy, -dz) & 1) {
          sends_.push_back({box(false), peer, tagOf(dx, dy, dz), {}, nullptr});
        }
      }
  // The persistent requests, bound to memory that never moves again: the
  // host buffers, or the memory `transferMemory` gives.
  for (std::vector<Message> *messages : {&receives_, &sends_})
    for (Message &m : *messages) {
      const std::size_t bytes = std::size_t(m.cells.points()) * elementBytes_;
      if (transferMemory) {
        m.transfer = transferMemory(bytes);
      } else {
        m.buffer.resize(bytes);
        m.transfer = m.buffer.data();
      }
      MPI_Request r;
      if (messages == &receives_)
        MPI_Recv_init(m.transfer, int(bytes), MPI_BYTE, m.peer, m.tag, d.comm(), &r);
      else
        MPI_Send_init(m.transfer, int(bytes), MPI_BYTE, m.peer, m.tag, d.comm(), &r);
      requests_.push_back(r);
    }
}

HaloExchange::~HaloExchange() {
  for (MPI_Request &r : requests_)
    if (r != MPI_REQUEST_NULL)
      MPI_Request_free(&r);
}

void HaloExchange::pack(const ErasedField &field, Message &m) const {
  const std::size_t row = std::size_t(m.cells.x1 - m.cells.x0) * elementBytes_;
  std::byte *out = m.buffer.data();
  const auto *base = static_cast<const std::byte *>(field.origin);
  for (int z = m.cells.z0; z < m.cells.z1; ++z)
    for (int y = m.cells.y0; y < m.cells.y1; ++y, out += row)
      std::memcpy(out, base + (m.cells.x0 + y * field.line + z * field.plane) * elementBytes_, row);
}

void HaloExchange::unpack(const ErasedField &field, const Message &m) const {
  const std::size_t row = std::size_t(m.cells.x1 - m.cells.x0) * elementBytes_;
  const std::byte *in = m.buffer.data();
  auto *base = static_cast<std::byte *>(field.origin);
  for (int z = m.cells.z0; z < m.cells.z1; ++z)
    for (int y = m.cells.y0; y < m.cells.y1; ++y, in += row)
      std::memcpy(base + (m.cells.x0 + y * field.line + z * field.plane) * elementBytes_, in, row);
}

void HaloExchange::start(const ErasedField &field) {
  for (Message &m : sends_)
    pack(field, m);
  if (!requests_.empty())
    MPI_Startall(int(requests_.size()), requests_.data());
}

void HaloExchange::finish(const ErasedField &field) {
  if (!requests_.empty())
    MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (const Message &m : receives_)
    unpack(field, m);
}

} // namespace stencilc::rt::mpi
