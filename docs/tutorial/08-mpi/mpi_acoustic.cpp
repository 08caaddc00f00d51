// Lesson 08: the acoustic step of lesson 06 on several MPI ranks, each stepping its own box of the
// grid, checked bit for bit against the same steps in one process (README.md).
//
// Run it as `mpiexec -n 2 tutorial-08-mpi` (any number of ranks that fits the grid).
#include <stencilc/Kernel.h>
#include <stencilc/KernelData.h>
#include <stencilc/mpi/DistributedKernel.h>
#include <stencilc/mpi/DomainSplit.h>

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = stencilc::rt;

namespace {

// 37 planes in z: two ranks own 19 and 18 of them (the split need not be even).
constexpr rt::Extent kGlobal{48, 40, 37};
constexpr int kSteps = 10;

int fieldIndex(const rt::KernelInfo &info, const char *name) {
  for (size_t f = 0; f < info.fields.size(); ++f)
    if (std::strcmp(info.fields[f].name, name) == 0)
      return int(f);
  throw std::runtime_error(std::string("no field ") + name);
}

/// The grids of a box of the global grid whose corner is at global (x0, y0, z0): every value,
/// halo included, is a function of the global position only, so a rank's local grids hold exactly
/// what the one-process grids hold at the same points.
rt::KernelData makeData(const rt::KernelInfo &info, const rt::Extent &extent, int x0, int y0,
                        int z0) {
  rt::KernelData data(info, rt::GridShape{3, extent.nx, extent.ny, extent.nz, info.radius},
                      /*tableColumns=*/0, /*inPlace=*/true);
  auto pulse = [&](int i, int j, int k) {
    const double x = i + x0 - 24, y = j + y0 - 20, z = k + z0 - 18;
    return std::exp(-(x * x + y * y + z * z) / 18.0); // across the ranks' boundary at z = 19
  };
  data.field<float>(fieldIndex(info, "u_prev")).fillWith(pulse);
  data.field<float>(fieldIndex(info, "u")).fillWith(pulse);
  data.field<float>(fieldIndex(info, "v")).fillWith([&](int, int, int k) {
    return k + z0 < 12 ? 1500.0 : 3000.0;
  });
  data.scalars() = {0.001, 10.0}; // dt and h, in the order the stencil declares them
  return data;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int failed = 0;
  {
    const rt::KernelInfo &info = *rt::findKernel("acoustic"); // linked in by CMakeLists.txt
    const rt::RunOptions options{};                           // naive, the default variant

    // The split: each rank owns a box of the global grid. Its local grids are that box plus a
    // halo as deep as the stencil reads (4 points: rt::mpi::haloOf reads it from the kernel).
    rt::mpi::DomainSplit split(MPI_COMM_WORLD, 3, kGlobal, rt::mpi::haloOf(info));
    const rt::Box own = split.owned();
    rt::KernelData local = makeData(info, split.local(), own.x0, own.y0, own.z0);

    // kSteps distributed steps: the boundary shell, the halo exchange started, the interior while
    // the messages travel, the exchange finished; then the time levels rotate, as in one process.
    rt::mpi::DistributedKernel kernel(info, split);
    for (int step = 0; step < kSteps; ++step) {
      kernel.step(local.args(), options);
      local.rotate();
    }

    // The same steps on the whole grid in one process (every rank does it; the grid is small).
    rt::KernelData whole = makeData(info, kGlobal, 0, 0, 0);
    for (int step = 0; step < kSteps; ++step) {
      info.run(whole.args(), options);
      whole.rotate();
    }

    // Compare the newest level over the owned box, bit for bit.
    const int u = fieldIndex(info, "u");
    const rt::Grid<float> &mine = local.field<float>(u), &all = whole.field<float>(u);
    long differing = 0;
    mine.forEachInteriorPoint([&](int i, int j, int k) {
      const float a = mine(i, j, k), b = all(i + own.x0, j + own.y0, k + own.z0);
      differing += std::memcmp(&a, &b, sizeof a) != 0;
    });

    // Rank 0 reports what every rank owns and what it found.
    const int box[6] = {own.x0, own.x1, own.y0, own.y1, own.z0, own.z1};
    std::vector<int> boxes(6 * split.size());
    MPI_Gather(box, 6, MPI_INT, boxes.data(), 6, MPI_INT, 0, MPI_COMM_WORLD);
    long differingAll = 0;
    MPI_Reduce(&differing, &differingAll, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (split.rank() == 0) {
      std::printf("%s on %dx%dx%d, %d steps, %s\n", info.name, kGlobal.nx, kGlobal.ny, kGlobal.nz,
                  kSteps, split.describe().c_str());
      for (int r = 0; r < split.size(); ++r) {
        const int *b = &boxes[6 * r];
        std::printf("  rank %d owns x [%d, %d) y [%d, %d) z [%d, %d), halo %d\n", r, b[0], b[1],
                    b[2], b[3], b[4], b[5], info.radius);
      }
      std::printf("  rank 0 sends %d message(s) per step\n", kernel.sendsPerStep());
      if (differingAll == 0)
        std::printf("every point equals the one-process run, bit for bit\n");
      else
        std::printf("FAILED: %ld points differ from the one-process run\n", differingAll);
      failed = differingAll != 0;
    }
    MPI_Bcast(&failed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } // everything MPI made is freed before MPI_Finalize
  MPI_Finalize();
  return failed;
}
