// clamp_legacy.cpp - A 3D acoustic step written the way codes guard their
// inputs: the velocity is clamped to [vmin, vmax] per point with std::min and
// std::max, and a sponge damps the step only where its profile is positive,
// chosen with a conditional, and the coefficient halved deep in the sponge
// by an `if` on a temporary:
//   c    = max(min(vel, vmax), vmin)
//   damp = eta > 0 ? 1 - eta : 1
//   s    = eta >= 0.2 ? 0.5 : 1
//   p_new = damp (2 p - p_old) + s c^2 dt^2 lap(p)
// The new level is written over the old one, exchanged with std::swap. The
// velocity model runs past vmax on one side and under vmin on the other, so
// both clamps and both branches are taken (docs/LIFT.md).
//
// Usage: clamp_legacy OUT [NX NY NZ STEPS]  -- writes the final wavefield, one
// value per line.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "clamp.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 40;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 36;
  const int nz = argc > 4 ? std::atoi(argv[4]) : 30;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 5;
  const int layer = 6;
  if (nx < 3 || ny < 3 || nz < 3) {
    std::fprintf(stderr, "clamp_legacy: NX, NY and NZ must be at least 3\n");
    return 2;
  }
  const float vmin = 0.3f, vmax = 0.55f, dt2 = 0.5f;
  const size_t n = size_t(nx) * ny * nz;
  std::vector<float> old(n, 0.0f), cur(n, 0.0f), vel(n), eta(n);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const size_t q = (size_t(k) * ny + j) * nx + i;
        vel[q] = 0.2f + 0.5f * float(i) / float(nx - 1);
        const int edge = std::min(k, nz - 1 - k);
        eta[q] = edge < layer ? 0.05f * float(layer - edge) : 0.0f;
        const float x = float(i - nx / 2), y = float(j - ny / 2), z = float(k - nz / 2);
        cur[q] = std::exp(-(x * x + y * y + z * z) / 10.0f);
        old[q] = cur[q];
      }
  for (int t = 0; t < steps; ++t) {
#pragma stencil clamp_legacy
    for (int k = 1; k < nz - 1; ++k)
      for (int j = 1; j < ny - 1; ++j)
        for (int i = 1; i < nx - 1; ++i) {
          const int q = (k * ny + j) * nx + i;
          const float c = std::max(std::min(vel[q], vmax), vmin);
          const float damp = eta[q] > 0.0f ? 1.0f - eta[q] : 1.0f;
          const float lap = cur[q - 1] + cur[q + 1] + cur[q - nx] + cur[q + nx] + cur[q - nx * ny] +
                            cur[q + nx * ny] - 6.0f * cur[q];
          float c2dt2 = c * c * dt2;
          if (eta[q] >= 0.2f)
            c2dt2 = 0.5f * c2dt2; // slower still deep in the sponge
          old[q] = damp * (2.0f * cur[q] - old[q]) + c2dt2 * lap;
        }
    std::swap(old, cur);
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t q = 0; q < n; ++q)
    std::fprintf(out, "%.9g\n", cur[q]);
  std::fclose(out);
  return 0;
}
