//===- Peak.h - Peak FMA throughput, the compute roof of the roofline -----===//
//
// The roofline model (docs/DESIGN.md §Performance model [7]): attainable =
// min(OI x bandwidth, peak flops). Stream.h measures
// the bandwidth roof; this measures the other one the same way, in the same
// process: independent chains of vector FMAs on every OpenMP thread, best of
// a few trials. `stencilc probe` writes it into a machine file and the bench
// harness measures it next to every run.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <omp.h>

#include <chrono>

namespace stencilc::rt {

// Bytes of one SIMD register, as the compiler targets this machine (-march=native).
#if defined(__AVX512F__)
inline constexpr int kVectorBytes = 64;
#elif defined(__AVX__)
inline constexpr int kVectorBytes = 32;
#else
inline constexpr int kVectorBytes = 16;
#endif

// Independent FMA chains per thread: 12 registers' worth hides an FMA latency of 4-6 cycles on
// two pipes and leaves registers for the constants.
template <typename T> inline constexpr int kFmaChains = 12 * kVectorBytes / int(sizeof(T));

/// Best GFLOP/s (an FMA counts two) over `trials` runs of `iterations` rounds
/// of kFmaChains<T> FMAs per thread, on every OpenMP thread.
template <typename T> double measureFmaGflops(long iterations = 20000000L, int trials = 3) {
  double best = 0;
  for (int trial = 0; trial < trials; ++trial) {
    double sink = 0;
    auto start = std::chrono::steady_clock::now();
#pragma omp parallel reduction(+ : sink)
    {
      alignas(64) T acc[kFmaChains<T>];
      for (int j = 0; j < kFmaChains<T>; ++j)
        acc[j] = T(omp_get_thread_num() + j) * T(1e-3);
      const T a = T(0.999999), b = T(1e-7);
      for (long i = 0; i < iterations; ++i) {
#pragma omp simd
        for (int j = 0; j < kFmaChains<T>; ++j)
          acc[j] = acc[j] * a + b;
      }
      for (int j = 0; j < kFmaChains<T>; ++j)
        sink += double(acc[j]); // keeps the loop alive
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double flops = 2.0 * kFmaChains<T> * double(iterations) * omp_get_max_threads();
    if (sink != 12345.0 && flops / seconds / 1e9 > best)
      best = flops / seconds / 1e9;
  }
  return best;
}

} // namespace stencilc::rt
