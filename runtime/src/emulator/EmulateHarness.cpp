//===- EmulateHarness.cpp - The program `stencilc emulate` compiles --------===//
//
// Linked with the counting build of one generated CUDA kernel (Counters.h) and
// compiled with
//   -DSTENCILC_EMULATE_HEADER='"<name>_cuda.h"'
//   -DSTENCILC_EMULATE_NAMESPACE=stencilc_kernels::<name>_cuda
// it runs one time step of one variant on the emulator, with the traffic
// counter on:
//
//   harness NX NY NZ VARIANT INDEX ND ARCH SHARED_BYTES
//       fills every field as `stencilc bench` does (index fields uniformly
//       random over ND values, or from the layered model with INDEX
//       "layered"; inputs in [0.5, 1.5), time levels in [-1, 1), tables
//       small), copies them to the emulated device and runs one step of
//       VARIANT (one launch per sweep; "twostep": one launch of runTwoSteps),
//       out of place, with LaunchOptions{arch = ARCH (compute capability x 10),
//       sharedBytes = SHARED_BYTES (0: the arch's default)}. Prints one line
//       per launch for `stencilc` to read:
//         launch KERNEL GX GY GZ BX BY BZ SHARED_BYTES GLOBAL_LOAD_REQUESTS
//                GLOBAL_LOAD_SECTORS GLOBAL_STORE_REQUESTS GLOBAL_STORE_SECTORS
//                SHARED_REQUESTS SHARED_WAVEFRONTS BARRIERS L1_DISTINCT_SECTORS
//                DRAM_BYTES_ESTIMATE
//       Exits 2 with a message on stderr for an unknown variant, and 1 if the
//       kernel made no memory access the hooks saw (not a counting build).
//
//===----------------------------------------------------------------------===//
#include STENCILC_EMULATE_HEADER

#include <stencilc/KernelData.h>
#include <stencilc/bench/LayeredIndex.h>
#include <stencilc/bench/RandomFill.h>
#include <stencilc/cuda/DeviceKernelData.h>
#include <stencilc/emulator/Counters.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace k = STENCILC_EMULATE_NAMESPACE;
namespace rt = stencilc::rt;
namespace emu = stencilc::cuda::emu;

namespace {

std::string variantList() {
  std::string list;
  for (k::Variant v : k::kVariants)
    list += std::string(list.empty() ? "" : ", ") + k::variantName(v);
  if (k::kTwoStepLaunch)
    list += ", twostep";
  return list;
}

int run(int argc, char **argv) {
  if (argc != 9 && argc != 10) {
    std::cerr << "usage: " << argv[0]
              << " NX NY NZ VARIANT random|layered ND ARCH SHARED_BYTES [ROWS]\n";
    return 2;
  }
  const int nx = std::atoi(argv[1]), ny = std::atoi(argv[2]), nz = std::atoi(argv[3]);
  const std::string variant = argv[4], index = argv[5];
  const int nd = std::atoi(argv[6]);
  const rt::KernelInfo &info = k::kernelInfo();

  bool twoStep = variant == "twostep";
  k::LaunchOptions options;
  options.arch = std::atoi(argv[7]);
  options.sharedBytes = std::atoi(argv[8]);
  options.rows = argc == 10 ? std::atoi(argv[9]) : 0;
  bool known = twoStep && k::kTwoStepLaunch;
  for (k::Variant v : k::kVariants)
    if (variant == k::variantName(v)) {
      options.variant = v;
      known = true;
    }
  if (!known) {
    std::cerr << "unknown variant '" << variant << "' of " << info.name
              << " (valid: " << variantList() << ")\n";
    return 2;
  }

  rt::GridShape shape{info.dims, nx, ny, info.dims == 3 ? nz : 1, info.radius};
  rt::KernelData data(info, shape, nd, /*inPlace=*/false);
  rt::fillForBench<k::Real>(data, nd);
  if (index == "layered")
    rt::fillLayered(data, nd);
  stencilc::cuda::DeviceKernelData device(data);
  const rt::ErasedArgs args = device.args();

  // runTwoSteps writes the second step's outputs into storages of their own.
  std::vector<stencilc::cuda::DeviceGrid<k::Real>> secondStorage;
  std::vector<rt::ErasedField> second;
  if (twoStep) {
    for (const rt::KernelFieldInfo &f : info.fields)
      if (std::string(f.role) == "out")
        secondStorage.emplace_back(shape);
    for (auto &g : secondStorage)
      second.push_back({static_cast<void *>(g.origin()), g.lineStride(), g.planeStride()});
  }

  emu::TrafficCounter counter;
  if (twoStep)
    k::runErasedTwoSteps(args, second, options);
  else
    k::runErased(args, options);

  for (const emu::LaunchCounts &c : counter.launches()) {
    if (c.accessesSeen == 0) {
      std::cerr << "launch " << c.kernel
                << ": the hooks saw no memory access; was the kernel compiled with "
                   "-fsanitize=thread (the counting build)?\n";
      return 1;
    }
    std::printf("launch %s %u %u %u %u %u %u %zu %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
                c.kernel.c_str(), c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
                c.sharedBytes, (unsigned long long)c.globalLoadRequests,
                (unsigned long long)c.globalLoadSectors, (unsigned long long)c.globalStoreRequests,
                (unsigned long long)c.globalStoreSectors, (unsigned long long)c.sharedRequests,
                (unsigned long long)c.sharedWavefronts, (unsigned long long)c.barriers,
                (unsigned long long)c.l1DistinctSectors, (unsigned long long)c.dramBytesEstimate);
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  }
}
