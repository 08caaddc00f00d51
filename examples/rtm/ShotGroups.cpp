//===- ShotGroups.cpp - Shots over groups of ranks, a shot over its group --===//
#include "ShotGroups.h"

#include "Model.h"

#include <fmt/format.h>

#ifdef WAVE_WITH_MPI
#include <mpi.h>
#endif

#include <set>
#include <stdexcept>

namespace rtm {

namespace {

/// This rank's box of `global` and the halo around it (the whole grid has
/// at least that halo), in this rank's coordinates.
rt::Grid<float> partOf(const rt::Grid<float> &global, const rt::Box &o, int halo) {
  rt::Grid<float> part = rt::Grid<float>::make3d(o.x1 - o.x0, o.y1 - o.y0, o.z1 - o.z0, halo);
  part.forEachPointWithHalo(
      [&](int i, int j, int k) { part(i, j, k) = global(i + o.x0, j + o.y0, k + o.z0); });
  return part;
}

} // namespace

void checkRanksPerShot(int ranksPerShot) {
  const int ranks = wave::ProcessGroup::size();
  if (ranksPerShot < 1)
    throw std::invalid_argument(
        fmt::format("--ranks-per-shot {}: expected 1 or more ranks a shot", ranksPerShot));
  if (ranks % ranksPerShot != 0)
    throw std::invalid_argument(fmt::format(
        "--ranks-per-shot {}: the run has {} rank{}, not a multiple of {}{}", ranksPerShot, ranks,
        ranks == 1 ? "" : "s", ranksPerShot,
        wave::ProcessGroup::distributed() ? " (mpiexec -n N with N a multiple of it)"
                                          : " (this build has no MPI: docs/DISTRIBUTED.md)"));
}

ShotGroups::ShotGroups(int ranksPerShot, int nx, int ny, int nz, wave::Operator op)
    : ranksPerShot_(ranksPerShot), nx_(nx), ny_(ny), nz_(nz) {
  checkRanksPerShot(ranksPerShot);
  const int rank = wave::ProcessGroup::rank();
  groups_ = wave::ProcessGroup::size() / ranksPerShot;
  group_ = rank / ranksPerShot;
  leader_ = rank % ranksPerShot == 0;
  if (ranksPerShot == 1)
    return; // each rank holds its shots' whole grid
  const wave::Communicator processes = wave::Communicator::groupsOf(ranksPerShot);
  try {
    forward_ = std::make_unique<wave::Distribution>(
        nx, ny, nz, "", wave::kernelOf(op, wave::Direction::Forward), true, 1, processes);
    // The adjoint kernel's split takes the forward one's rank grid: the same boxes.
    adjoint_ = std::make_unique<wave::Distribution>(nx, ny, nz, forward_->rankGrid(),
                                                    wave::kernelOf(op, wave::Direction::Adjoint),
                                                    true, 1, processes);
  } catch (const std::invalid_argument &e) {
    throw std::invalid_argument(fmt::format("--ranks-per-shot {}: {}", ranksPerShot, e.what()));
  }
  forward_->prepareExchange();
  adjoint_->prepareExchange();
}

ShotGroups::~ShotGroups() = default;

std::string ShotGroups::describe() const {
  if (!split())
    return fmt::format("{} rank{}, a shot's whole grid on each", groups_, groups_ == 1 ? "" : "s");
  return fmt::format("{} group{} of {} ranks, each shot's {}x{}x{} points over {} boxes", groups_,
                     groups_ == 1 ? "" : "s", ranksPerShot_, nx_, ny_, nz_, forward_->rankGrid());
}

std::unique_ptr<wave::Propagator>
ShotGroups::propagator(wave::Operator op, wave::Direction direction,
                       const rt::Grid<float> &velocity, const rt::Grid<float> &damping, double h,
                       double dt, const std::string &stencilDir) const {
  if (!split())
    return wave::Propagator::create(op, velocity, damping, h, dt, stencilDir, {}, false, direction);
  const wave::Distribution &d = direction == wave::Direction::Forward ? *forward_ : *adjoint_;
  const rt::Box o = d.owned();
  const int halo = d.halo(wave::kHalo);
  // The ETE table has a column per velocity of the whole grid, so every box
  // builds the same table (Propagator.h UniteVelocities).
  return wave::Propagator::create(
      op, partOf(velocity, o, halo), partOf(damping, o, halo), h, dt, stencilDir,
      [&d](const std::set<float> &mine) { return d.unite(mine); }, false, direction);
}

wave::Stepper ShotGroups::stepper(wave::Direction direction) const {
  if (!split())
    return {};
  wave::Distribution *d = direction == wave::Direction::Forward ? forward_.get() : adjoint_.get();
  return [d](const rt::KernelInfo &, const rt::ErasedArgs &args, const rt::RunOptions &options) {
    d->step(args, options);
  };
}

std::vector<wave::Injection> ShotGroups::here(const std::vector<wave::Injection> &spread) const {
  if (!split())
    return spread;
  // The exchange follows each step, before its injections are added: a point
  // injected only where it is owned would be missing from its halo copies
  // at the next step. Every copy gets the same addition, so all agree.
  const rt::Box o = forward_->owned();
  const int halo = forward_->halo(wave::kHalo);
  std::vector<wave::Injection> out;
  for (const wave::Injection &w : spread) {
    const int i = w.i - o.x0, j = w.j - o.y0, k = w.k - o.z0;
    if (i >= -halo && i < o.x1 - o.x0 + halo && j >= -halo && j < o.y1 - o.y0 + halo &&
        k >= -halo && k < o.z1 - o.z0 + halo)
      out.push_back({i, j, k, w.value});
  }
  return out;
}

ImageSums ShotGroups::gather(ImageSums mine) const {
  if (!split())
    return mine;
  ImageSums whole;
  whole.cross = forward_->gatherVolume(mine.cross);
  whole.illumination = forward_->gatherVolume(mine.illumination);
  return whole;
}

ImageSums ShotGroups::stack(std::vector<ImageSums> &mine, size_t shots, size_t points) const {
  const int rank = wave::ProcessGroup::rank();
  ImageSums total;
  if (rank == 0) {
    total.cross.assign(points, 0.0);
    total.illumination.assign(points, 0.0);
  }
  std::vector<double> cross(points), illumination(points);
  for (size_t n = 0; n < shots; ++n) {
    // Shot n's sums are on the leader of group n mod G, the (n / G)-th it holds.
    const int owner = int(n % size_t(groups_)) * ranksPerShot_;
    ImageSums *own = rank == owner ? &mine[n / size_t(groups_)] : nullptr;
    if (rank == 0 && own) {
      cross.swap(own->cross);
      illumination.swap(own->illumination);
    }
#ifdef WAVE_WITH_MPI
    else if (own) {
      MPI_Send(own->cross.data(), int(points), MPI_DOUBLE, 0, 2 * int(n), MPI_COMM_WORLD);
      MPI_Send(own->illumination.data(), int(points), MPI_DOUBLE, 0, 2 * int(n) + 1,
               MPI_COMM_WORLD);
      *own = {};
      continue;
    } else if (rank == 0) {
      MPI_Recv(cross.data(), int(points), MPI_DOUBLE, owner, 2 * int(n), MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Recv(illumination.data(), int(points), MPI_DOUBLE, owner, 2 * int(n) + 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
#endif
    else
      continue;
    // The fixed order: shot n's sums added after shot n − 1's, at every point.
    for (size_t p = 0; p < points; ++p) {
      total.cross[p] += cross[p];
      total.illumination[p] += illumination[p];
    }
  }
  return total;
}

} // namespace rtm
