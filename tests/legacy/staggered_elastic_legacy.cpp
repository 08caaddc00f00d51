// staggered_elastic_legacy.cpp - A 2D velocity-stress elastic step on a
// staggered grid (Virieux's scheme), written as such codes are: one loop nest
// updates both velocities in place with `+=` from the stress differences, the
// next updates the three stresses in place from the velocity differences,
// with buoyancy and Lamé parameters as per-point arrays and `long` counters.
//
// Usage: staggered_elastic_legacy OUT [NX NZ STEPS]  -- writes the five
// fields, one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "staggered_elastic.out";
  const long nx = argc > 2 ? std::atol(argv[2]) : 60;
  const long nz = argc > 3 ? std::atol(argv[3]) : 44;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 6;
  if (nx < 3 || nz < 3) {
    std::fprintf(stderr, "staggered_elastic_legacy: NX and NZ must be at least 3\n");
    return 2;
  }
  const long n = nx * nz;
  const float dt = 1e-3f, h = 10.0f, r = dt / h;
  std::vector<float> vx(n, 0.0f), vz(n, 0.0f), sxx(n, 0.0f), szz(n, 0.0f), sxz(n, 0.0f);
  std::vector<float> buoy(n), lam(n), mu(n), lam2mu(n);
  for (long k = 0; k < nz; ++k)
    for (long i = 0; i < nx; ++i) {
      const long q = k * nx + i;
      const float x = float(i - nx / 2), z = float(k - nz / 2);
      buoy[q] = k < nz / 2 ? 1.0f / 2000.0f : 1.0f / 2300.0f;
      lam[q] = (k < nz / 2 ? 4.0e9f : 6.0e9f) * 1e-6f;
      mu[q] = (k < nz / 2 ? 2.0e9f : 3.0e9f) * 1e-6f;
      lam2mu[q] = lam[q] + 2.0f * mu[q];
      sxx[q] = szz[q] = std::exp(-(x * x + z * z) / 10.0f);
    }
  for (int t = 0; t < steps; ++t) {
#pragma stencil velocity
    for (long k = 1; k < nz - 1; ++k)
      for (long i = 1; i < nx - 1; ++i) {
        const long q = k * nx + i;
        vx[q] += r * buoy[q] * (sxx[q + 1] - sxx[q] + sxz[q] - sxz[q - nx]);
        vz[q] += r * buoy[q] * (sxz[q] - sxz[q - 1] + szz[q + nx] - szz[q]);
      }
#pragma stencil stress
    for (long k = 1; k < nz - 1; ++k)
      for (long i = 1; i < nx - 1; ++i) {
        const long q = k * nx + i;
        const float dvxdx = vx[q] - vx[q - 1], dvzdz = vz[q] - vz[q - nx];
        sxx[q] += r * (lam2mu[q] * dvxdx + lam[q] * dvzdz);
        szz[q] += r * (lam[q] * dvxdx + lam2mu[q] * dvzdz);
        sxz[q] += r * mu[q] * (vx[q + nx] - vx[q] + vz[q + 1] - vz[q]);
      }
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (long q = 0; q < n; ++q)
    std::fprintf(out, "%.9g\n%.9g\n%.9g\n%.9g\n%.9g\n", vx[q], vz[q], sxx[q], szz[q], sxz[q]);
  std::fclose(out);
  return 0;
}
