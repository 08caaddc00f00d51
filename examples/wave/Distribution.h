//===- Distribution.h - The example's grid over one process or many -------===//
//
// With MPI (docs/DISTRIBUTED.md), `mpiexec -n N wave ...` splits the grid
// into one box per rank: each rank builds its own part of the model (and the
// halo around it), steps it with halo exchange, and rank 0 assembles the
// snapshots and the seismogram. Without MPI, or with one rank, the one box
// is the whole grid. The time loop is the same either way.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"
#include "stencilc/io/Png.h"
#include "stencilc/timeloop/TimeTiling.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace wave {

namespace rt = stencilc::rt;

/// The processes a Distribution spans: every process of the run by default
/// (under MPI, MPI_COMM_WORLD), or one of the groups groupsOf makes.
class Communicator {
public:
  Communicator(); ///< every process of the run
  /// Collective over every process: the processes in consecutive groups of
  /// `size` (process r in group r / size, as its rank r mod size); returns
  /// this process's group. The number of processes must be a multiple of
  /// `size` (std::invalid_argument otherwise).
  static Communicator groupsOf(int size);
  int rank() const;
  int size() const;

private:
  friend class Distribution;
  struct Handle;
  std::shared_ptr<const Handle> handle_;
};

class Distribution {
public:
  /// Splits nx x ny x nz for `kernel` (its reach sets the halo): `ranks` is
  /// the rank grid ("2x1x2") or empty to let MPI choose; `stepsPerExchange`
  /// T > 1 makes the halo T reaches deep, exchanged once per T steps
  /// (runSteps). Collective over `processes`, which the grid is split over;
  /// throws std::invalid_argument, the same on every rank, for a split that
  /// cannot work.
  Distribution(int nx, int ny, int nz, const std::string &ranks, const rt::KernelInfo &kernel,
               bool overlap, int stepsPerExchange = 1,
               const Communicator &processes = Communicator());
  ~Distribution();

  int rank() const;
  int ranks() const;
  bool root() const { return rank() == 0; }
  /// The processes of the run on this process's machine (this one included),
  /// which share its memory.
  int processesHere() const;
  std::string describe() const;
  /// The rank grid chosen ("2x1x2"): another Distribution given it splits the
  /// same grid into the same boxes.
  std::string rankGrid() const;
  /// The interior points this process owns, in global coordinates.
  rt::Box owned() const;
  rt::GridShape localShape(int halo) const;
  /// The halo this process's grids need for a stencil of radius `radius`:
  /// T times it over several processes with T steps per exchange, else itself.
  int halo(int radius) const;

  /// Allocates the halo exchange's buffers and requests, once the run is
  /// known to fit in memory; collective. step and runSteps need it.
  void prepareExchange();
  /// One step of `kernel` on this process's grids, exchanging halos between
  /// ranks. Only with one step per exchange.
  void step(const rt::ErasedArgs &args, const rt::RunOptions &options);
  /// `count` steps of `kernel` on this process's grids (their halo halo(kernel.radius)
  /// deep), one halo exchange per T steps (rt::mpi::DeepHaloKernel), each round
  /// of T steps tiled for the cache with the tiles of `tiling` (its depth is T);
  /// `afterBox` is called after each step on each tile's box, in the grids'
  /// coordinates (it may reach into the halo). `args` are rotated `count` times.
  /// Only with T > 1 steps per exchange.
  void runSteps(rt::ErasedArgs &args, int count, const rt::TimeTiling &tiling,
                const rt::RunOptions &options, const rt::AfterBox &afterBox);
  double haloSeconds() const;

  // Collectives: every process calls them with its own part.
  /// Returns when every process has called it.
  void synchronize() const;
  double max(double mine) const;
  /// Every distinct value any process holds.
  std::set<float> unite(const std::set<float> &mine) const;
  /// On the root, the picture the parts tile; elsewhere an empty image.
  rt::Image2D gather(const rt::Image2D &part, int x0, int y0, int width, int height) const;
  /// On the root, the nx x ny x nz volume (x fastest) the parts tile, each
  /// process's `part` being its owned() box (x fastest); elsewhere empty. The
  /// values are copied, not combined, so they arrive bit for bit.
  std::vector<double> gatherVolume(const std::vector<double> &part) const;

  // Volumes in .npy files (float32, shape (nz, ny, nx)): each process reads
  // or writes its own box, with MPI-IO under MPI.
  /// Fills `local` (this process's box and halo) from `path`.
  void read(const std::string &path, rt::Grid<float> &local) const;
  /// Writes the global volume `local` is this process's part of.
  void write(const rt::Grid<float> &local, const std::string &path) const;

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// MPI_Init/MPI_Finalize around the program when built with MPI; nothing otherwise.
/// The grid size (nx, ny, nz) of a volume .npy file, agreed by every process;
/// throws std::runtime_error naming the file (and the processes) otherwise.
rt::Extent volumeSize(const std::string &path);

/// Runs `f` on every process. Where it throws on some, every process throws
/// std::runtime_error with the message of the lowest such rank (and, under
/// MPI, which rank that was), so no process waits for the others in vain.
void onEveryProcess(const std::function<void()> &f);

/// Throws std::runtime_error on every process, saying `what` differs between
/// processes and showing rank 0's `mine`, unless `mine` is the same on all.
void expectSameOnEveryProcess(const std::string &mine, const std::string &what);

class ProcessGroup {
public:
  ProcessGroup(int &argc, char **&argv);
  ~ProcessGroup();
  static bool distributed(); ///< built with MPI
  static int rank();
  static int size(); ///< the processes of the run (1 without MPI)
  /// Every process leaves with `status`; used when only some processes failed.
  [[noreturn]] static void abort(int status);
};

} // namespace wave
