// iso3dfd_legacy.cpp - An 8th-order isotropic acoustic propagator in the
// classic ISO3DFD style: raw float arrays, an inner loop over the radius that
// accumulates coeff[r] times the six neighbours at distance r, the velocity
// folded into a per-point array, OpenMP pragmas on the loops, and the two
// time levels swapped as pointers after each step (the new level is written
// over the oldest one).
//
// Usage: iso3dfd_legacy OUT [NX NY NZ STEPS]  -- writes the final wavefield,
// one value per line (sizes default to a small grid; larger ones time it).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int R = 4; // half the order

void step(float *next, const float *prev, const float *vel, const float *coeff, int nx, int ny,
          int nz) {
  const int line = nx, slice = nx * ny;
#pragma stencil iso3dfd_legacy
#pragma omp parallel for collapse(2)
  for (int k = R; k < nz - R; ++k) {
    for (int j = R; j < ny - R; ++j) {
#pragma omp simd
      for (int i = R; i < nx - R; ++i) {
        const int pos = k * slice + j * line + i;
        float value = coeff[0] * prev[pos];
        for (int r = 1; r <= R; ++r)
          value +=
              coeff[r] * (prev[pos + r] + prev[pos - r] + prev[pos + r * line] +
                          prev[pos - r * line] + prev[pos + r * slice] + prev[pos - r * slice]);
        next[pos] = 2.0f * prev[pos] - next[pos] + vel[pos] * value;
      }
    }
  }
}

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "iso3dfd.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 36;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 32;
  const int nz = argc > 4 ? std::atoi(argv[4]) : 28;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 3;
  if (nx <= 2 * R || ny <= 2 * R || nz <= 2 * R || steps < 0) {
    std::fprintf(stderr, "iso3dfd_legacy: sizes must exceed %d and steps be >= 0\n", 2 * R);
    return 2;
  }
  const size_t n = size_t(nx) * ny * nz;
  const float dt = 0.002f, h = 12.5f;
  // Fornberg weights of the 8th-order second derivative, the centre's three times.
  float coeff[R + 1] = {-205.0f / 72.0f, 8.0f / 5.0f, -1.0f / 5.0f, 8.0f / 315.0f, -1.0f / 560.0f};
  coeff[0] *= 3.0f;
  std::vector<float> a(n, 0.0f), b(n, 0.0f), vel(n);
  for (size_t p = 0; p < n; ++p) {
    const float v = 1500.0f + 1000.0f * float(p % 7) / 7.0f;
    vel[p] = v * v * dt * dt / (h * h);
  }
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const float r2 = float((i - nx / 2) * (i - nx / 2) + (j - ny / 2) * (j - ny / 2) +
                               (k - nz / 2) * (k - nz / 2));
        a[size_t(k) * nx * ny + size_t(j) * nx + i] = std::exp(-r2 / 10.0f);
        b[size_t(k) * nx * ny + size_t(j) * nx + i] = 0.95f * std::exp(-r2 / 10.0f);
      }
  float *prev = a.data(), *next = b.data();
  const auto loopStart = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
    step(next, prev, vel.data(), coeff, nx, ny, nz);
    float *tmp = prev; // the new level becomes the current one
    prev = next;
    next = tmp;
  }
  // The time loop alone, to stderr (the output file is what round trips compare).
  std::fprintf(stderr, "time loop: %.6f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - loopStart).count());
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t p = 0; p < n; ++p)
    std::fprintf(out, "%.9g\n", prev[p]);
  std::fclose(out);
  return 0;
}
