//===- RunMemory.cpp - What an rtm run holds, refused before it computes ----===//
#include "RunMemory.h"

#include "RunChecks.h"

#include "analysis/RunBudget.h"

#include <fmt/format.h>

#ifdef WAVE_WITH_MPI
#include <mpi.h>
#endif

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace rtm {

namespace {

std::uint64_t floatGrid(const rt::GridShape &shape) {
  return rt::GridLayout::of<float>(shape).elements * sizeof(float);
}

std::uint64_t interiorFloats(const rt::GridShape &shape) {
  return std::uint64_t(shape.nx) * std::uint64_t(shape.ny) * std::uint64_t(shape.nz) *
         sizeof(float);
}

std::uint64_t imagedLevels(const MigrationFootprint &f) {
  return std::uint64_t(f.steps / f.imageEvery);
}

} // namespace

std::uint64_t memoryBytes(const MigrationFootprint &f) {
  const std::uint64_t interior = interiorFloats(f.shape);
  std::uint64_t box = std::uint64_t(f.propagators) * wave::gridBytes(f.shape, f.op);
  switch (f.storage) {
  case Storage::Memory: box += imagedLevels(f) * interior; break;
  case Storage::Disk: box += interior; break;
  case Storage::Revolve:
    if (!f.checkpointsOnDisk)
      box += std::uint64_t(f.checkpoints) * 2 * interior;
    break;
  }
  return box / std::uint64_t(std::max(f.parts, 1)) +
         std::uint64_t(f.modelGrids) * floatGrid(f.shape) +
         std::uint64_t(f.imageSums) * 2 * 2 * interior; // two doubles a point
}

std::uint64_t fileBytes(const MigrationFootprint &f) {
  const std::uint64_t interior = interiorFloats(f.shape);
  if (f.storage == Storage::Disk)
    return imagedLevels(f) * interior;
  if (f.storage == Storage::Revolve && f.checkpointsOnDisk)
    return std::uint64_t(f.checkpoints) * 2 * interior;
  return 0;
}

int processesOnThisMachine() {
#ifdef WAVE_WITH_MPI
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (initialised) {
    MPI_Comm here;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &here);
    int n = 1;
    MPI_Comm_size(here, &n);
    MPI_Comm_free(&here);
    return n;
  }
#endif
  return 1;
}

void checkFootprint(const MigrationFootprint &f, const std::string &fileDir) {
  using stencilc::analysis::bytesText;
  const double perProcess = double(memoryBytes(f));
  const int here = processesOnThisMachine();
  const double available = double(stencilc::analysis::readAvailableMemory());
  if (available > 0 && perProcess * here > available)
    throw std::invalid_argument(fmt::format(
        "the migration needs {} of memory{} on a {}x{}x{} grid with the {} storage ({} "
        "wavefields imaged), and this machine has {} available: the revolve storage or fewer "
        "--checkpoints, a larger --image-every, or a smaller model",
        bytesText(perProcess * here),
        here > 1 ? fmt::format(" ({} per process, {} processes here)", bytesText(perProcess), here)
                 : "",
        f.shape.nx, f.shape.ny, f.shape.nz, storageName(f.storage), imagedLevels(f),
        bytesText(available)));
  const std::uint64_t files = fileBytes(f);
  if (files == 0 || fileDir.empty())
    return;
  std::error_code error;
  const std::filesystem::space_info space = std::filesystem::space(fileDir, error);
  if (!error && double(files) > double(space.available))
    throw std::invalid_argument(fmt::format(
        "{}: the {} storage writes {} of wavefields a shot and the file system there has {} "
        "free: revolve with its checkpoints in memory, or fewer steps per image (--image-every)",
        fileDir, storageName(f.storage), stencilc::analysis::bytesText(double(files)),
        stencilc::analysis::bytesText(double(space.available))));
}

} // namespace rtm
