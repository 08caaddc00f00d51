//===- Distribution.cpp ---------------------------------------------------===//
#include "Distribution.h"

#include "stencilc/io/Npy.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#ifdef WAVE_WITH_MPI
#include "stencilc/mpi/DeepHaloKernel.h"
#include "stencilc/mpi/DistributedKernel.h"
#include "stencilc/mpi/Gather.h"
#include "stencilc/mpi/ParallelNpy.h"

#include <climits>
#include <optional>
#include <vector>
#endif

namespace wave {

#ifdef WAVE_WITH_MPI

namespace mpi = stencilc::rt::mpi;

struct Communicator::Handle {
  MPI_Comm comm = MPI_COMM_WORLD;
  ~Handle() {
    if (comm != MPI_COMM_WORLD)
      MPI_Comm_free(&comm);
  }
};

Communicator::Communicator() : handle_(std::make_shared<Handle>()) {}

Communicator Communicator::groupsOf(int size) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (size < 1 || ranks % size != 0)
    throw std::invalid_argument("groups of " + std::to_string(size) + " processes: " +
                                std::to_string(ranks) + " processes are not a multiple of it");
  auto handle = std::make_shared<Handle>();
  MPI_Comm_split(MPI_COMM_WORLD, rank / size, rank, &handle->comm);
  Communicator group;
  group.handle_ = std::move(handle);
  return group;
}

int Communicator::rank() const {
  int rank = 0;
  MPI_Comm_rank(handle_->comm, &rank);
  return rank;
}

int Communicator::size() const {
  int size = 1;
  MPI_Comm_size(handle_->comm, &size);
  return size;
}

struct Distribution::Impl {
  Impl(int nx, int ny, int nz, const mpi::RankGrid &grid, const rt::KernelInfo &kernel,
       bool overlap, int stepsPerExchange, const Communicator &processes)
      : processes(processes), domainSplit(processes.handle_->comm, 3, {nx, ny, nz},
                                          mpi::haloOf(kernel), grid, stepsPerExchange),
        kernel(kernel), overlap(overlap) {}
  Communicator processes; ///< held while the split's communicator, made from it, lives
  mpi::DomainSplit domainSplit;
  const rt::KernelInfo &kernel;
  std::optional<mpi::DistributedKernel> step; ///< one step per exchange
  std::optional<mpi::DeepHaloKernel> steps;   ///< T > 1 steps per exchange
  bool overlap;
};

namespace {
mpi::RankGrid parseRanks(const std::string &text) {
  if (text.empty())
    return {};
  std::string error;
  auto grid = mpi::parseRankGrid(text, 3, error);
  if (!grid)
    throw std::invalid_argument("--ranks: " + error);
  return *grid;
}
} // namespace

Distribution::Distribution(int nx, int ny, int nz, const std::string &ranks,
                           const rt::KernelInfo &kernel, bool overlap, int stepsPerExchange,
                           const Communicator &processes) {
  try {
    impl_ = std::make_unique<Impl>(nx, ny, nz, parseRanks(ranks), kernel, overlap, stepsPerExchange,
                                   processes);
  } catch (const mpi::DomainSplitError &e) {
    throw std::invalid_argument(e.what());
  }
}
Distribution::~Distribution() = default;

int Distribution::rank() const { return impl_->domainSplit.rank(); }
int Distribution::ranks() const { return impl_->domainSplit.size(); }
std::string Distribution::describe() const { return impl_->domainSplit.describe(); }
std::string Distribution::rankGrid() const {
  return mpi::rankGridText(impl_->domainSplit.ranks(), 3);
}
rt::Box Distribution::owned() const { return impl_->domainSplit.owned(); }
rt::GridShape Distribution::localShape(int halo) const {
  const rt::Extent e = impl_->domainSplit.local();
  return {3, e.nx, e.ny, e.nz, halo};
}
int Distribution::halo(int radius) const {
  return ranks() > 1 ? radius * impl_->domainSplit.stepsPerExchange() : radius;
}
void Distribution::prepareExchange() {
  // Each holds its own persistent requests and halo buffers; a run needs one.
  if (impl_->domainSplit.stepsPerExchange() > 1)
    impl_->steps.emplace(impl_->kernel, impl_->domainSplit);
  else
    impl_->step.emplace(impl_->kernel, impl_->domainSplit);
}
void Distribution::step(const rt::ErasedArgs &args, const rt::RunOptions &options) {
  if (!impl_->step)
    throw std::logic_error("Distribution::step: no exchange for one step (prepareExchange, or "
                           "several steps per exchange: runSteps)");
  impl_->step->step(args, options, impl_->overlap);
}
void Distribution::runSteps(rt::ErasedArgs &args, int count, const rt::TimeTiling &tiling,
                            const rt::RunOptions &options, const rt::AfterBox &afterBox) {
  if (!impl_->steps)
    throw std::logic_error("Distribution::runSteps: no exchange for several steps "
                           "(prepareExchange, or one step per exchange: step)");
  impl_->steps->runTiled(args, count, tiling, options, afterBox);
}
double Distribution::haloSeconds() const {
  return impl_->step ? impl_->step->haloSeconds() : impl_->steps ? impl_->steps->haloSeconds() : 0;
}

void Distribution::synchronize() const { MPI_Barrier(impl_->domainSplit.comm()); }

int Distribution::processesHere() const {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(impl_->domainSplit.comm(), MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL,
                      &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

double Distribution::max(double mine) const {
  double all = mine;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, impl_->domainSplit.comm());
  return all;
}

std::set<float> Distribution::unite(const std::set<float> &mine) const {
  MPI_Comm comm = impl_->domainSplit.comm();
  const int count = int(mine.size());
  std::vector<int> counts(ranks()), displacements(ranks());
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
  int total = 0;
  for (int r = 0; r < ranks(); ++r) {
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<float> values(mine.begin(), mine.end());
  std::vector<float> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(values.data(), count, MPI_FLOAT, all.data(), counts.data(), displacements.data(),
                 MPI_FLOAT, comm);
  return {all.begin(), all.end()};
}

rt::Image2D Distribution::gather(const rt::Image2D &part, int x0, int y0, int width,
                                 int height) const {
  return mpi::gatherImage(impl_->domainSplit.comm(), {x0, y0, part}, width, height);
}

std::vector<double> Distribution::gatherVolume(const std::vector<double> &part) const {
  MPI_Comm comm = impl_->domainSplit.comm();
  const rt::Box o = owned();
  const int box[6] = {o.x0, o.y0, o.z0, o.x1, o.y1, o.z1};
  if (part.size() != size_t(o.x1 - o.x0) * size_t(o.y1 - o.y0) * size_t(o.z1 - o.z0))
    throw std::logic_error("Distribution::gatherVolume: the part is not the owned box's size");
  if (!root()) {
    MPI_Send(box, 6, MPI_INT, 0, 0, comm);
    MPI_Send(part.data(), int(part.size()), MPI_DOUBLE, 0, 1, comm);
    return {};
  }
  const rt::Extent n = impl_->domainSplit.global();
  std::vector<double> whole(size_t(n.nx) * size_t(n.ny) * size_t(n.nz), 0.0);
  std::vector<double> received;
  for (int r = 0; r < ranks(); ++r) {
    int b[6];
    const double *values = part.data();
    if (r == 0) {
      std::copy(box, box + 6, b);
    } else {
      MPI_Recv(b, 6, MPI_INT, r, 0, comm, MPI_STATUS_IGNORE);
      received.resize(size_t(b[3] - b[0]) * size_t(b[4] - b[1]) * size_t(b[5] - b[2]));
      MPI_Recv(received.data(), int(received.size()), MPI_DOUBLE, r, 1, comm, MPI_STATUS_IGNORE);
      values = received.data();
    }
    // The box's rows, x fastest, into their places in the whole volume.
    const size_t width = size_t(b[3] - b[0]);
    for (int k = b[2]; k < b[5]; ++k)
      for (int j = b[1]; j < b[4]; ++j, values += width)
        std::copy(values, values + width,
                  whole.begin() +
                      std::ptrdiff_t((size_t(k) * size_t(n.ny) + size_t(j)) * size_t(n.nx) +
                                     size_t(b[0])));
  }
  return whole;
}

void Distribution::read(const std::string &path, rt::Grid<float> &local) const {
  mpi::readNpyParallel(impl_->domainSplit, local, path);
}

void Distribution::write(const rt::Grid<float> &local, const std::string &path) const {
  mpi::writeNpyParallel(impl_->domainSplit, local, path);
}

rt::Extent volumeSize(const std::string &path) {
  return mpi::inspectNpyParallel(MPI_COMM_WORLD, path).extent;
}

void onEveryProcess(const std::function<void()> &f) {
  std::string error;
  try {
    f();
  } catch (const std::exception &e) {
    error = *e.what() ? e.what() : "failed";
  }
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int mine = error.empty() ? INT_MAX : rank;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX)
    return;
  int length = int(error.size());
  MPI_Bcast(&length, 1, MPI_INT, first, MPI_COMM_WORLD);
  error.resize(std::size_t(length));
  MPI_Bcast(error.data(), length, MPI_CHAR, first, MPI_COMM_WORLD);
  throw std::runtime_error(error + " (rank " + std::to_string(first) + ")");
}

void expectSameOnEveryProcess(const std::string &mine, const std::string &what) {
  int length = int(mine.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string root = mine;
  root.resize(std::size_t(length));
  MPI_Bcast(root.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int differs = root != mine;
  int anyDiffers = 0;
  MPI_Allreduce(&differs, &anyDiffers, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (anyDiffers)
    throw std::runtime_error(what + " differs between processes (rank 0: " + root + ")");
}

ProcessGroup::ProcessGroup(int &argc, char **&argv) { MPI_Init(&argc, &argv); }
ProcessGroup::~ProcessGroup() { MPI_Finalize(); }
bool ProcessGroup::distributed() { return true; }
int ProcessGroup::rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}
int ProcessGroup::size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}
void ProcessGroup::abort(int status) {
  MPI_Abort(MPI_COMM_WORLD, status);
  std::exit(status);
}

#else // One process: the whole grid.

struct Communicator::Handle {};
Communicator::Communicator() = default;
Communicator Communicator::groupsOf(int size) {
  if (size != 1)
    throw std::invalid_argument("groups of " + std::to_string(size) +
                                " processes: this build has no MPI, so runs in one process");
  return {};
}
int Communicator::rank() const { return 0; }
int Communicator::size() const { return 1; }

struct Distribution::Impl {
  int nx, ny, nz;
  const rt::KernelInfo &kernel;
};

Distribution::Distribution(int nx, int ny, int nz, const std::string &ranks,
                           const rt::KernelInfo &kernel, bool, int, const Communicator &)
    : impl_(std::make_unique<Impl>(Impl{nx, ny, nz, kernel})) {
  if (!ranks.empty() && ranks != "1x1x1")
    throw std::invalid_argument("--ranks " + ranks +
                                ": this build has no MPI (docs/DISTRIBUTED.md)");
}
Distribution::~Distribution() = default;
int Distribution::rank() const { return 0; }
int Distribution::ranks() const { return 1; }
int Distribution::processesHere() const { return 1; }
void Distribution::prepareExchange() {}
std::string Distribution::describe() const { return "1 process"; }
std::string Distribution::rankGrid() const { return "1x1x1"; }
rt::Box Distribution::owned() const { return {0, 0, 0, impl_->nx, impl_->ny, impl_->nz}; }
rt::GridShape Distribution::localShape(int halo) const {
  return {3, impl_->nx, impl_->ny, impl_->nz, halo};
}
int Distribution::halo(int radius) const { return radius; }
void Distribution::step(const rt::ErasedArgs &args, const rt::RunOptions &options) {
  impl_->kernel.run(args, options);
}
void Distribution::runSteps(rt::ErasedArgs &args, int count, const rt::TimeTiling &tiling,
                            const rt::RunOptions &options, const rt::AfterBox &afterBox) {
  // One process holds the whole grid: tiled for the cache, nothing to exchange.
  rt::runTimeTiled(impl_->kernel, args, count, tiling, options, afterBox);
}
double Distribution::haloSeconds() const { return 0; }
void Distribution::synchronize() const {}
double Distribution::max(double mine) const { return mine; }
std::set<float> Distribution::unite(const std::set<float> &mine) const { return mine; }
rt::Image2D Distribution::gather(const rt::Image2D &part, int, int, int, int) const { return part; }
std::vector<double> Distribution::gatherVolume(const std::vector<double> &part) const {
  return part;
}

void Distribution::read(const std::string &path, rt::Grid<float> &local) const {
  rt::readNpyInto(local, path);
}

void Distribution::write(const rt::Grid<float> &local, const std::string &path) const {
  rt::writeNpy(local, path);
}

rt::Extent volumeSize(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw std::runtime_error(path + ": cannot open");
  rt::NpyHeader h;
  try {
    h = rt::parseNpyHeader(in);
  } catch (const std::runtime_error &e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (h.descr != rt::npyDescr<float>() || h.fortranOrder || h.shape.size() != 3)
    throw std::runtime_error(path + ": expected a C-order float32 array of shape (nz, ny, nx)");
  return {int(h.shape[2]), int(h.shape[1]), int(h.shape[0])};
}

void onEveryProcess(const std::function<void()> &f) { f(); }
void expectSameOnEveryProcess(const std::string &, const std::string &) {}

ProcessGroup::ProcessGroup(int &, char **&) {}
ProcessGroup::~ProcessGroup() = default;
bool ProcessGroup::distributed() { return false; }
int ProcessGroup::rank() { return 0; }
int ProcessGroup::size() { return 1; }
void ProcessGroup::abort(int status) { std::exit(status); }

#endif

} // namespace wave
