//===- CudaArchs.h - The CUDA architectures, their budgets and defaults ----===//
//
// One table of the GPUs Stencilc plans and generates for. The planner takes
// each architecture's on-chip budgets from it, the driver its `--arch` values,
// and the CUDA lowering its launch defaults, which the generated header then
// spells (kArchDefaults) for the runtime to fill in what a LaunchOptions
// leaves at zero.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stencilc::target {

/// How a step is launched where LaunchOptions leaves a value at zero. Blocks
/// are one warp wide so rows are read coalesced. A block marching
/// `planesPerBlock` planes loads its halo planes once per that many outputs
/// (docs/DESIGN.md §Backends) but leaves nz / planesPerBlock blocks per column
/// for the multiprocessors to share.
struct LaunchDefaults {
  int blockX = 32, blockY = 8;
  int planesPerBlock = 32; ///< `nw`: planes each block of traditional and planes marches
  int rowsPerThread = 1;   ///< `rows`: output rows each thread of traditional computes
  /// The variant a step takes where its caller names none: gmem ran fastest for every
  /// example and block shape on an H200 (docs/PERFORMANCE.md §CUDA variants on a GPU).
  const char *variant = "gmem";
};

struct CudaArch {
  const char *name;      ///< "sm_80"
  int computeCapability; ///< 80
  /// Per multiprocessor: the SRAM that L1 (the read-only path) and shared memory split.
  long l1AndSharedBytes;
  /// Per block: what any block may use without opting in, and the opt-in limit.
  int sharedBytesPerBlock;
  int maxSharedBytesPerBlock;
  LaunchDefaults launch;
  /// An `--arch` value: the generated kernels are compiled (and CI builds them) for it.
  bool buildTarget;
};

/// Every architecture, oldest first. The memory figures are those of the CUDA
/// C++ Programming Guide's table of technical specifications per compute
/// capability; the launch defaults are Stencilc's (docs/DESIGN.md §Backends).
const std::vector<CudaArch> &cudaArchs();

/// The architecture named `name` ("sm_90"), or null.
const CudaArch *findCudaArch(std::string_view name);

/// The names of the architectures with `buildTarget`, oldest first.
std::vector<std::string> buildArchNames();

} // namespace stencilc::target
