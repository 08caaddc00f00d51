// Lesson 07: the acoustic step of lesson 06 as a CUDA kernel, run on the CPU through the CUDA
// emulator, next to the CPU kernel generated from the same .stencil file (README.md).
//
// Both kernels step the same pulse for a few steps. The CPU kernel's result is the yardstick; each
// CUDA variant is compared with it point by point, and the program says how far apart they are.
#include "acoustic.h"      // the CPU kernel: namespace stencilc_kernels::acoustic
#include "acoustic_cuda.h" // the CUDA kernel: namespace stencilc_kernels::acoustic_cuda

#include <stencilc/Grid.h>
#include <stencilc/Kernel.h>
#include <stencilc/cuda/DeviceGrid.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rt = stencilc::rt;
namespace cu = stencilc::cuda;
namespace cpu = stencilc_kernels::acoustic;
namespace gpu = stencilc_kernels::acoustic_cuda;

namespace {

// Not multiples of a CUDA block (32 x 8 threads) or of a march (32 planes): the last blocks
// and the last chunk of planes are partial, which is where index mistakes show.
constexpr int kNx = 45, kNy = 27, kNz = 40;
constexpr int kSteps = 8;
constexpr float kDt = 0.001f, kH = 10.0f; // s and m: v dt / h = 0.3 at most, below the limit

/// The two starting levels: a smooth pulse, at rest (u_prev = u). Halo included, so the
/// boundary the kernels read is the same for both.
rt::Grid<float> pulse() {
  auto u = rt::Grid<float>::make3d(kNx, kNy, kNz, cpu::kRadius);
  u.fillWith([](int i, int j, int k) {
    const double r2 = (i - 20) * (i - 20) + (j - 13) * (j - 13) + (k - 17) * (k - 17);
    return std::exp(-r2 / 18.0);
  });
  return u;
}

/// Velocity: 1500 m/s above z = 20, 3000 m/s below.
rt::Grid<float> velocity() {
  auto v = rt::Grid<float>::make3d(kNx, kNy, kNz, cpu::kRadius);
  v.fillWith([](int, int, int k) { return k < 20 ? 1500.0 : 3000.0; });
  return v;
}

/// The CPU kernel, in place (u_next over u_prev): kSteps steps, the newest level returned.
rt::Grid<float> runCpu() {
  rt::Grid<float> a = pulse(), b = pulse();
  const rt::Grid<float> v = velocity();
  cpu::Args args;
  args.extent = {kNx, kNy, kNz};
  args.u_prev = rt::view(std::as_const(a));
  args.u = rt::view(std::as_const(b));
  args.u_next = rt::view(a);
  args.v = rt::view(v);
  args.dt = kDt;
  args.h = kH;
  for (int step = 0; step < kSteps; ++step) {
    cpu::run(args);    // the default variant (naive)
    cpu::rotate(args); // u_prev <- u <- u_next: here a swap of the two grids
  }
  return args.u.origin == a.origin() ? a.clone() : b.clone();
}

/// The CUDA kernel, the same way: upload, kSteps launches, download the newest level.
rt::Grid<float> runCuda(const gpu::LaunchOptions &options) {
  cu::DeviceGrid<float> a(pulse()), b(pulse());
  const cu::DeviceGrid<float> v(velocity());
  gpu::Args args;
  args.extent = {kNx, kNy, kNz};
  args.u_prev = rt::readOnlyView(a.view());
  args.u = rt::readOnlyView(b.view());
  args.u_next = a.view();
  args.v = v.view();
  args.dt = kDt;
  args.h = kH;
  for (int step = 0; step < kSteps; ++step) {
    gpu::run(args, options);
    gpu::rotate(args);
  }
  return args.u.origin == a.origin() ? a.toHost() : b.toHost();
}

/// A launch of `variant`; nw: planes each block marches in z (0: the architecture's default, 32
/// for the default sm_80).
gpu::LaunchOptions launch(gpu::Variant variant, int nw = 0) {
  gpu::LaunchOptions options;
  options.variant = variant;
  options.nw = nw;
  return options;
}

/// max |got - want| over the interior, relative to max |want|.
double relativeDifference(const rt::Grid<float> &got, const rt::Grid<float> &want) {
  double diff = 0, size = 0;
  want.forEachInteriorPoint([&](int i, int j, int k) {
    diff = std::max(diff, std::fabs(double(got(i, j, k)) - double(want(i, j, k))));
    size = std::max(size, std::fabs(double(want(i, j, k))));
  });
  return diff / size;
}

} // namespace

int main() {
  const rt::Grid<float> reference = runCpu();
  std::printf("acoustic, %dx%dx%d, %d steps: each CUDA variant against the CPU kernel\n", kNx, kNy,
              kNz, kSteps);

  struct Run {
    const char *label;
    gpu::LaunchOptions options;
  };
  const Run runs[] = {
      {"gmem", launch(gpu::Variant::Gmem)},
      {"ro", launch(gpu::Variant::Ro)},
      {"traditional", launch(gpu::Variant::Traditional)},
      {"planes", launch(gpu::Variant::Planes)},
      // 8 planes per block instead of 32: five times the blocks, each loading its 8 halo planes.
      {"traditional, nw 8", launch(gpu::Variant::Traditional, 8)},
      {"planes, nw 8", launch(gpu::Variant::Planes, 8)},
  };

  // The CUDA kernels do not add the terms in the CPU kernel's order (planes, for one, sums a
  // plane at a time), so float roundings differ in the last bits: after 8 steps, a few 1e-7 of
  // the largest value.
  constexpr double kTolerance = 1e-5;
  bool ok = true;
  for (const Run &run : runs) {
    const double d = relativeDifference(runCuda(run.options), reference);
    const bool close = d <= kTolerance;
    ok = ok && close;
    std::printf("  %-18s max difference %.1e of the largest value: %s\n", run.label, d,
                close ? "agrees" : "DIFFERS");
  }
  std::printf("%s\n", ok ? "all variants agree" : "FAILED");
  return ok ? 0 : 1;
}
