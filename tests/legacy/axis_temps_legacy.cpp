// axis_temps_legacy.cpp - A 4th-order acoustic step in double precision that
// names each axis's second derivative in a temporary and combines them in the
// update, as many teaching and production codes do; size_t counters, bounds
// written as `i < nx - R`, std::vector wavefields exchanged with std::swap.
//
// Usage: axis_temps_legacy OUT [NX NY NZ STEPS]  -- writes the final
// wavefield, one value per line.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "axis_temps.out";
  const std::size_t nx = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 30;
  const std::size_t ny = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 26;
  const std::size_t nz = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 22;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 8;
  constexpr std::size_t R = 2;
  if (nx <= 2 * R || ny <= 2 * R || nz <= 2 * R) {
    std::fprintf(stderr, "axis_temps_legacy: every size must exceed %zu\n", 2 * R);
    return 2;
  }
  const double dt = 1e-3, hx = 10.0, hy = 12.0, hz = 8.0, c = 1800.0;
  const double w0 = -5.0 / 2.0, w1 = 4.0 / 3.0, w2 = -1.0 / 12.0;
  const double ax = c * c * dt * dt / (hx * hx), ay = c * c * dt * dt / (hy * hy),
               az = c * c * dt * dt / (hz * hz);
  const std::size_t line = nx, slice = nx * ny, n = nx * ny * nz;
  std::vector<double> prev(n, 0.0), cur(n, 0.0), next(n, 0.0);
  for (std::size_t p = 0; p < n; ++p) {
    const double x = double(p % nx) - nx / 2.0, y = double((p / nx) % ny) - ny / 2.0,
                 z = double(p / slice) - nz / 2.0;
    cur[p] = std::exp(-(x * x + y * y + z * z) / 6.0);
    prev[p] = cur[p];
  }
  for (int t = 0; t < steps; ++t) {
#pragma stencil axis_temps_legacy
    for (std::size_t k = R; k < nz - R; ++k)
      for (std::size_t j = R; j < ny - R; ++j)
        for (std::size_t i = R; i < nx - R; ++i) {
          const std::size_t pos = i + j * line + k * slice;
          const double dxx = w0 * cur[pos] + w1 * (cur[pos - 1] + cur[pos + 1]) +
                             w2 * (cur[pos - 2] + cur[pos + 2]);
          const double dyy = w0 * cur[pos] + w1 * (cur[pos - line] + cur[pos + line]) +
                             w2 * (cur[pos - 2 * line] + cur[pos + 2 * line]);
          const double dzz = w0 * cur[pos] + w1 * (cur[pos - slice] + cur[pos + slice]) +
                             w2 * (cur[pos - 2 * slice] + cur[pos + 2 * slice]);
          next[pos] = 2.0 * cur[pos] - prev[pos] + ax * dxx + ay * dyy + az * dzz;
        }
    std::swap(prev, cur);
    std::swap(cur, next);
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (std::size_t p = 0; p < n; ++p)
    std::fprintf(out, "%.17g\n", cur[p]);
  std::fclose(out);
  return 0;
}
