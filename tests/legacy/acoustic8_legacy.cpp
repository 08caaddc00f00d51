// acoustic8_legacy.cpp - An 8th-order acoustic wave propagator written as
// legacy seismic codes write it (docs/DESIGN.md [5], leapfrog in time): flat
// std::vector wavefields indexed through IDX(i, j, k) = i + nx*(j + ny*k), the
// Laplacian's weights as named constants, v^2 dt^2 / h^2 folded into one
// per-point array, and the new field written over the oldest one in place.
// The loop nest is marked for `stencilc lift` / `stencilc rewrite`.
//
// Usage: acoustic8_legacy OUT  -- writes the final wavefield, one value per line.
#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#define IDX(i, j, k) ((i) + nx * ((j) + ny * (k)))

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "acoustic8.out";
  const int nx = 41, ny = 35, nz = 29, halo = 4, steps = 4;
  const float dt = 0.001f, h = 10.0f;
  // Second-derivative weights of order 8 (Fornberg); c0 is the centre's per axis.
  const float c0 = -205.0f / 72.0f, c1 = 8.0f / 5.0f, c2 = -1.0f / 5.0f, c3 = 8.0f / 315.0f,
              c4 = -1.0f / 560.0f;

  const size_t n = size_t(nx) * ny * nz;
  std::vector<float> uPrev(n, 0.0f), uCur(n, 0.0f), vdt2(n);
  for (int k = 0; k < nz; ++k) {
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        float v = k < nz / 2 ? 1500.0f : 2500.0f; // two layers
        vdt2[IDX(i, j, k)] = v * v * dt * dt / (h * h);
      }
    }
  }
  // A smooth pulse in the middle, already moving (two different levels).
  for (int k = halo; k < nz - halo; ++k) {
    for (int j = halo; j < ny - halo; ++j) {
      for (int i = halo; i < nx - halo; ++i) {
        float r2 = float((i - nx / 2) * (i - nx / 2) + (j - ny / 2) * (j - ny / 2) +
                         (k - nz / 2) * (k - nz / 2));
        uCur[IDX(i, j, k)] = std::exp(-r2 / 8.0f);
        uPrev[IDX(i, j, k)] = 0.9f * std::exp(-r2 / 8.0f);
      }
    }
  }

  for (int step = 0; step < steps; ++step) {
#pragma stencil acoustic8_legacy
    for (int k = halo; k < nz - halo; ++k)
      for (int j = halo; j < ny - halo; ++j)
        for (int i = halo; i < nx - halo; ++i)
          uPrev[IDX(i, j, k)] =
              2.0f * uCur[IDX(i, j, k)] - uPrev[IDX(i, j, k)] +
              vdt2[IDX(i, j, k)] *
                  (3.0f * c0 * uCur[IDX(i, j, k)] +
                   c1 * (uCur[IDX(i - 1, j, k)] + uCur[IDX(i + 1, j, k)] + uCur[IDX(i, j - 1, k)] +
                         uCur[IDX(i, j + 1, k)] + uCur[IDX(i, j, k - 1)] + uCur[IDX(i, j, k + 1)]) +
                   c2 * (uCur[IDX(i - 2, j, k)] + uCur[IDX(i + 2, j, k)] + uCur[IDX(i, j - 2, k)] +
                         uCur[IDX(i, j + 2, k)] + uCur[IDX(i, j, k - 2)] + uCur[IDX(i, j, k + 2)]) +
                   c3 * (uCur[IDX(i - 3, j, k)] + uCur[IDX(i + 3, j, k)] + uCur[IDX(i, j - 3, k)] +
                         uCur[IDX(i, j + 3, k)] + uCur[IDX(i, j, k - 3)] + uCur[IDX(i, j, k + 3)]) +
                   c4 * (uCur[IDX(i - 4, j, k)] + uCur[IDX(i + 4, j, k)] + uCur[IDX(i, j - 4, k)] +
                         uCur[IDX(i, j + 4, k)] + uCur[IDX(i, j, k - 4)] + uCur[IDX(i, j, k + 4)]));
    std::swap(uPrev, uCur); // the new level (written over uPrev) becomes the current one
  }

  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t p = 0; p < n; ++p)
    std::fprintf(out, "%.9g\n", uCur[p]);
  std::fclose(out);
  std::printf("acoustic8: %d steps on %dx%dx%d, centre = %g\n", steps, nx, ny, nz,
              uCur[IDX(nx / 2, ny / 2, nz / 2)]);
  return 0;
}
