// Lesson 09: a wave propagator written the way hand-made stencil code often is, before Stencilc
// (README.md). Flattened arrays, an OpenMP loop nest with an inner loop over the radius, the
// coefficients in an array, two time levels swapped after every step. The `#pragma stencil` line
// marks the nest for `stencilc lift` and `stencilc rewrite`; compilers ignore it.
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

constexpr int R = 4;                     // radius: 8th order in space
constexpr int NX = 40, NY = 36, NZ = 32; // points, halo of R included
constexpr int STEPS = 30;

int main() {
  const long line = NX, slice = long(NX) * NY;
  // The 8th-order second-derivative weights, for unit spacing.
  const double c[R + 1] = {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560};
  const double dt = 0.001, h = 10.0;

  std::vector<double> prev(slice * NZ), cur(slice * NZ), vel2(slice * NZ);
  for (int k = 0; k < NZ; ++k)
    for (int j = 0; j < NY; ++j)
      for (int i = 0; i < NX; ++i) {
        const long p = i + line * j + slice * k;
        const double r2 = (i - 20) * (i - 20) + (j - 18) * (j - 18) + (k - 16) * (k - 16);
        prev[p] = cur[p] = std::exp(-r2 / 8.0);               // a pulse at rest
        vel2[p] = k < 16 ? 1500.0 * 1500.0 : 2500.0 * 2500.0; // v², two layers
      }

  for (int t = 0; t < STEPS; ++t) {
    // prev <- 2 cur - prev + v² dt² / h² laplacian(cur), written over prev.
#pragma stencil legacy_wave
#pragma omp parallel for collapse(2)
    for (int k = R; k < NZ - R; ++k)
      for (int j = R; j < NY - R; ++j)
        for (int i = R; i < NX - R; ++i) {
          const long p = i + line * j + slice * k;
          double lap = 3.0 * c[0] * cur[p];
          for (int r = 1; r <= R; ++r)
            lap += c[r] * (cur[p - r] + cur[p + r] + cur[p - r * line] + cur[p + r * line] +
                           cur[p - r * slice] + cur[p + r * slice]);
          prev[p] = 2.0 * cur[p] - prev[p] + vel2[p] * dt * dt / (h * h) * lap;
        }
    std::swap(prev, cur);
  }

  double peak = 0, sum = 0;
  for (double value : cur) {
    peak = std::fmax(peak, std::fabs(value));
    sum += value;
  }
  std::printf("%d steps on %dx%dx%d: max |u| = %.6f, sum of u = %.6f\n", STEPS, NX, NY, NZ, peak,
              sum);
  return 0;
}
