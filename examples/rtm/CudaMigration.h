//===- CudaMigration.h - Reverse-time migration on the CUDA path -----------===//
//
// `rtm --backend cuda` (docs/SEISMIC.md §The CUDA path): the shots modelled
// and migrated with the CUDA kernels `stencilc gen --backend cuda` makes of
// examples/wave/acoustic8_sponge.stencil and of its adjoint, the wavefields,
// the model's fields and the image's sums in device memory, the source, the
// receivers and the imaging condition handled by small device kernels
// (DeviceKernels.h). The three storages are those of Migration.h, on the
// device:
//
//   memory   every imaged u copied into a device grid of its own;
//   disk     every imaged u written by stencilc::cuda::DeviceSnapshotWriter (the
//            download on its copy stream, the file by its worker thread)
//            as .npy, read back with the shape checked and uploaded;
//   revolve  the checkpoints are device grids.
//
// The arithmetic of injection and imaging is the CPU path's, so the
// storages' images are equal bit for bit here too. This header holds no
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

class CudaMigration {
public:
  /// The true and the migration model's fields on the device. Throws
  /// std::invalid_argument for grids the kernels cannot run on, and
  /// stencilc::cuda::CudaError when the device refuses (memory).
  CudaMigration(const rt::Grid<float> &trueVelocity, const rt::Grid<float> &migrationVelocity,
                const rt::Grid<float> &damping, double h, double dt, CudaVariant variant);
  ~CudaMigration();
  CudaMigration(const CudaMigration &) = delete;
  CudaMigration &operator=(const CudaMigration &) = delete;

  /// The device the kernels run on (cudaGetDeviceProperties' name).
  static std::string deviceName();
  /// Whether this build runs the CUDA path on the CPU emulator (copies synchronous).
  static bool emulated();

  enum class Model { True, Migration };
  /// What the receivers record after each of `steps` forward steps in `model`.
  std::vector<std::vector<float>> modelShot(Model model, const Shot &shot, int steps);

  /// As rtm::migrateShot on the migration model (`options.run` aside: the
  /// kernels' variant is the constructor's).
  void migrateShot(const Shot &shot, const MigrationOptions &options, ImageSums &sums,
                   StorageReport &report);

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace rtm
