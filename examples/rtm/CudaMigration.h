//===- CudaMigration.h - Reverse-time migration on the CUDA path -----------===//
//
// `rtm --backend cuda` (docs/SEISMIC.md §The CUDA path): the shots modelled
// and migrated with the CUDA kernels `stencilc gen --backend cuda` makes of
// examples/wave/acoustic8_sponge.stencil or ete37_sponge.stencil and of their
// adjoints, the wavefields, the model's fields (ETE's table and per-point
// column among them) and the image's sums in device memory, the source, the
// receivers (on or off the grid) and the imaging condition handled by small
// device kernels (DeviceKernels.h). The three storages are those of
// Migration.h, on the device:
//
//   memory   every imaged u copied into a device grid of its own;
//   disk     every imaged u written by stencilc::cuda::DeviceSnapshotWriter (the
//            download on its copy stream, the file by its worker thread)
//            as .npy, read back with the shape checked and uploaded;
//   revolve  the checkpoints are device grids or, with a checkpoint
//            directory, the CPU path's checkpoint files (downloaded and
//            written, read back and uploaded).
//
// The arithmetic of injection, recording and imaging is the CPU path's, so
// the storages' images are equal bit for bit here too. This header holds no
// CUDA type: the host program includes it as plain C++.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Migration.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rtm {

/// The generated CUDA kernels' schemes (LaunchOptions::variant).
enum class CudaVariant { Gmem, Ro, Traditional, Planes };
std::optional<CudaVariant> parseCudaVariant(const std::string &name);

/// What the device runs: the operator, the grid spacing and step, the
/// kernels' scheme and where ete37_sponge.stencil is (its points are the
/// ETE table's rows, as on the CPU path).
struct CudaSetup {
  wave::Operator op = wave::Operator::Fd8;
  double h = 0, dt = 0;
  CudaVariant variant = CudaVariant::Gmem;
  std::string stencilDir;
};

class CudaMigration {
public:
  /// The migration model's fields on the device, and the true model's where
  /// `trueVelocity` is given (the built-in demonstration models its shots in
  /// it; a survey's shots are recorded). Throws std::invalid_argument for
  /// grids the kernels cannot run on, std::runtime_error for an unstable ETE
  /// fit (wave::fitEteTable), and stencilc::cuda::CudaError when the device
  /// refuses (memory).
  CudaMigration(const rt::Grid<float> *trueVelocity, const rt::Grid<float> &migrationVelocity,
                const rt::Grid<float> &damping, const CudaSetup &setup);
  ~CudaMigration();
  CudaMigration(const CudaMigration &) = delete;
  CudaMigration &operator=(const CudaMigration &) = delete;

  /// The device the kernels run on (cudaGetDeviceProperties' name).
  static std::string deviceName();
  /// Makes device `rank` mod D this process's, D the devices it sees (one
  /// under the emulator), so that ranks spread over a node's devices; returns
  /// its index. Throws stencilc::cuda::CudaError or std::runtime_error where
  /// there is none.
  static int useDeviceOfRank(int rank);
  /// Whether this build runs the CUDA path on the CPU emulator (copies synchronous).
  static bool emulated();

  enum class Model { True, Migration };
  /// What the receivers record after each of `steps` forward steps in
  /// `model` (rtm::modelShot's arithmetic). With `afterStep`, u is copied
  /// back to the host after every step that is a multiple of `every` (the
  /// demonstration's wavefield slices; not every step, which would cost a
  /// download each) and handed to it. Throws std::logic_error for the true
  /// model when none was given, std::invalid_argument for `every` < 1 with a
  /// callback.
  std::vector<std::vector<float>> modelShot(Model model, const Shot &shot, int steps, int every = 0,
                                            const AfterStep &afterStep = {});

  /// As rtm::migrateShot on the migration model (`options.run` aside: the
  /// kernels' variant is the setup's); the shot's off-grid spreads, when it
  /// has them, are honoured as on the CPU path.
  void migrateShot(const Shot &shot, const MigrationOptions &options, ImageSums &sums,
                   StorageReport &report);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace rtm
