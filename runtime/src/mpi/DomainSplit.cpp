//===- DomainSplit.cpp ----------------------------------------------------===//
#include "stencilc/mpi/DomainSplit.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <vector>

namespace stencilc::rt::mpi {

namespace {

const char *axisName(int axis) { return axis == 0 ? "x" : axis == 1 ? "y" : "z"; }

int extentOf(const Extent &e, int axis) { return axis == 0 ? e.nx : axis == 1 ? e.ny : e.nz; }

/// Why `ranks` cannot split `global` with subdomains at least `halo` x
/// `steps` thick (the halo of `steps` steps per exchange), or "".
std::string thinness(const Extent &global, const std::array<int, 3> &ranks,
                     const std::array<int, 3> &halo, int steps, int dims) {
  for (int axis = 0; axis < dims; ++axis) {
    const int n = extentOf(global, axis), p = ranks[axis], deep = halo[axis] * steps;
    if (p > 1 && n / p < deep) {
      std::string fit;
      for (int a = 0; a < dims; ++a) {
        const int depth = halo[a] * steps;
        const int most = depth > 0 ? std::max(1, extentOf(global, a) / depth) : extentOf(global, a);
        fit += (a ? ", " : "") + std::to_string(most) + " along " + axisName(a);
      }
      const std::string which = steps == 1
                                    ? "the stencil's halo of " + std::to_string(deep)
                                    : "the halo of " + std::to_string(deep) + " (the stencil's " +
                                          std::to_string(halo[axis]) + " x " +
                                          std::to_string(steps) + " steps per exchange)";
      return "a subdomain of " + std::to_string(n / p) + " points along " + axisName(axis) + " (" +
             std::to_string(n) + " over " + std::to_string(p) + " ranks) is thinner than " + which +
             " there; with " + std::to_string(global.nx) + "x" + std::to_string(global.ny) +
             (dims == 3 ? "x" + std::to_string(global.nz) : std::string()) + " points at most " +
             fit + " fit";
    }
  }
  return "";
}

/// The points every rank sends per step, summed: the sides of the subdomains.
long long surface(const Extent &global, const std::array<int, 3> &ranks, int dims) {
  long long cut = 0;
  for (int axis = 0; axis < dims; ++axis) {
    long long across = 1;
    for (int a = 0; a < dims; ++a)
      if (a != axis)
        across *= extentOf(global, a);
    cut += (ranks[axis] - 1) * across;
  }
  return cut;
}

} // namespace

std::optional<RankGrid> parseRankGrid(std::string_view text, int dims, std::string &error) {
  RankGrid grid;
  grid.ranks = {1, 1, 1};
  int axis = 0;
  size_t pos = 0;
  while (true) {
    size_t end = text.find('x', pos);
    std::string_view part = text.substr(pos, end == std::string_view::npos ? text.npos : end - pos);
    int value = 0;
    auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc() || ptr != part.data() + part.size() || value < 1 ||
        axis >= dims) {
      error = "bad rank grid '" + std::string(text) + "': expected " +
              (dims == 3 ? "NXxNYxNZ, such as 2x1x2" : "NXxNY, such as 2x1") +
              ", each count at least 1";
      return std::nullopt;
    }
    grid.ranks[axis++] = value;
    if (end == std::string_view::npos)
      break;
    pos = end + 1;
  }
  if (axis != dims) {
    error = "bad rank grid '" + std::string(text) + "': it names " + std::to_string(axis) +
            " axes, the stencil has " + std::to_string(dims);
    return std::nullopt;
  }
  return grid;
}

std::string rankGridText(const std::array<int, 3> &ranks, int dims) {
  std::string text = std::to_string(ranks[0]) + "x" + std::to_string(ranks[1]);
  if (dims == 3)
    text += "x" + std::to_string(ranks[2]);
  return text;
}

DomainSplit::DomainSplit(MPI_Comm comm, int dims, const Extent &global,
                         const std::array<int, 3> &halo, const RankGrid &wanted,
                         int stepsPerExchange)
    : dims_(dims), stepsPerExchange_(stepsPerExchange), global_(global) {
  MPI_Comm_size(comm, &size_);
  if (stepsPerExchange < 1)
    throw DomainSplitError(std::to_string(stepsPerExchange) +
                           " steps per halo exchange: expected 1 or more");
  const bool given = wanted.ranks[0] > 0;
  if (given) {
    ranks_ = wanted.ranks;
    if (dims == 2)
      ranks_[2] = 1;
    const long long product = 1LL * ranks_[0] * ranks_[1] * ranks_[2];
    if (product != size_)
      throw DomainSplitError("the rank grid " + rankGridText(ranks_, dims) + " has " +
                             std::to_string(product) + " ranks, but the run has " +
                             std::to_string(size_));
    if (std::string why = thinness(global, ranks_, halo, stepsPerExchange, dims); !why.empty())
      throw DomainSplitError("the rank grid " + rankGridText(ranks_, dims) +
                             " does not fit: " + why);
  } else {
    // MPI_Dims_create orders the counts largest first; the largest goes to the
    // slowest axis (z in 3D, y in 2D), so that rows stay whole and long for SIMD.
    int chosen[3] = {0, 0, 0};
    MPI_Dims_create(size_, dims, chosen);
    ranks_ = dims == 3 ? std::array<int, 3>{chosen[2], chosen[1], chosen[0]}
                       : std::array<int, 3>{chosen[1], chosen[0], 1};
    if (!thinness(global, ranks_, halo, stepsPerExchange, dims).empty()) {
      // MPI_Dims_create balances the counts, not the subdomains' thickness:
      // take the rank grid with the smallest cut among those that fit.
      std::array<int, 3> best = {0, 0, 0};
      for (int px = 1; px <= size_; ++px)
        for (int py = 1; px * py <= size_; ++py) {
          if (size_ % (px * py))
            continue;
          const std::array<int, 3> r = {px, py, size_ / (px * py)};
          if ((dims == 2 && r[2] != 1) ||
              !thinness(global, r, halo, stepsPerExchange, dims).empty())
            continue;
          if (best[0] == 0 || surface(global, r, dims) < surface(global, best, dims))
            best = r;
        }
      if (best[0] == 0)
        throw DomainSplitError(std::to_string(size_) + " ranks cannot split the grid: " +
                               thinness(global, ranks_, halo, stepsPerExchange, dims));
      ranks_ = best;
    }
  }
  const int periods[3] = {0, 0, 0};
  const int counts[3] = {ranks_[0], ranks_[1], ranks_[2]};
  MPI_Cart_create(comm, 3, counts, periods, /*reorder=*/0, &cart_);
  MPI_Comm_rank(cart_, &rank_);
  int c[3];
  MPI_Cart_coords(cart_, rank_, 3, c);
  coords_ = {c[0], c[1], c[2]};
  owned_.x0 = partBegin(global.nx, ranks_[0], c[0]);
  owned_.x1 = owned_.x0 + partSize(global.nx, ranks_[0], c[0]);
  owned_.y0 = partBegin(global.ny, ranks_[1], c[1]);
  owned_.y1 = owned_.y0 + partSize(global.ny, ranks_[1], c[1]);
  owned_.z0 = partBegin(global.nz, ranks_[2], c[2]);
  owned_.z1 = owned_.z0 + partSize(global.nz, ranks_[2], c[2]);
}

DomainSplit::~DomainSplit() {
  if (cart_ != MPI_COMM_NULL)
    MPI_Comm_free(&cart_);
}

int DomainSplit::neighbour(int dx, int dy, int dz) const {
  const int d[3] = {dx, dy, dz};
  int c[3];
  for (int axis = 0; axis < 3; ++axis) {
    c[axis] = coords_[axis] + d[axis];
    if (c[axis] < 0 || c[axis] >= ranks_[axis])
      return MPI_PROC_NULL;
  }
  int rank = MPI_PROC_NULL;
  MPI_Cart_rank(cart_, c, &rank);
  return rank;
}

std::string DomainSplit::describe() const {
  std::string text = rankGridText(ranks_, dims_) + " ranks over " + std::to_string(global_.nx) +
                     "x" + std::to_string(global_.ny);
  if (dims_ == 3)
    text += "x" + std::to_string(global_.nz);
  return text;
}

} // namespace stencilc::rt::mpi
