//===- Stream.h - A STREAM-like triad bandwidth probe ----------------------===//
//
// Memory-bound kernels are judged against the bandwidth this machine really
// delivers, measured in the same run (docs/DESIGN.md §Performance model):
// McCalpin's STREAM triad [8]
// a[i] = b[i] + s * c[i] on double arrays far larger than the last-level
// cache, parallel with OpenMP and first-touched the same way, counting bytes
// as STREAM does (24 bytes per element: two reads and one write; the
// write-allocate read is not counted). Like STREAM it reports the best of
// several trials.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/AlignedBuffer.h"

#include <algorithm>
#include <chrono>
#include <cstddef>

namespace stencilc::rt {

/// Best triad bandwidth in GB/s (1e9 bytes per second) over `trials` runs on
/// arrays of `elements` doubles each.
inline double measureTriadBandwidth(std::size_t elements = std::size_t(1) << 25, int trials = 10) {
  AlignedBuffer<double> a(elements), b(elements), c(elements);
  double *pa = a.data(), *pb = b.data(), *pc = c.data();
  const std::ptrdiff_t n = std::ptrdiff_t(elements);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    pa[i] = 1.0;
    pb[i] = 2.0;
    pc[i] = 0.5;
  }
  const double scalar = 3.0;
  double best = 1e30;
  for (int t = 0; t < trials; ++t) {
    auto start = std::chrono::steady_clock::now();
#pragma omp parallel for simd schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i)
      pa[i] = pb[i] + scalar * pc[i];
    std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    best = std::min(best, seconds.count());
  }
  volatile double sink = pa[n / 2]; // keep the stores
  (void)sink;
  return 24.0 * double(elements) / best / 1e9;
}

} // namespace stencilc::rt
