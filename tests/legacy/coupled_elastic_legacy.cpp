// coupled_elastic_legacy.cpp - A 2D isotropic elastic step in displacement
// form (U along x, V along y, coupled through cross derivatives), written as
// one loop nest that updates both components: each new level is written over
// the previous one in place, then tapered by a sponge factor, and a third
// output averages the two new components, reading what the same body just
// wrote. Lamé parameters and density are per-point arrays; the levels are
// exchanged as pointers after each step.
//
// Usage: coupled_elastic_legacy OUT [NX NY STEPS]  -- writes U, V and the
// average, one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "coupled_elastic.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 50;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 40;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 15;
  if (nx < 3 || ny < 3) {
    std::fprintf(stderr, "coupled_elastic_legacy: NX and NY must be at least 3\n");
    return 2;
  }
  const size_t n = size_t(nx) * ny;
  const double dt = 5e-4, h = 5.0;
  const double s = dt * dt / (h * h);
  std::vector<double> u0(n, 0.0), u1(n, 0.0), v0(n, 0.0), v1(n, 0.0), avg(n, 0.0);
  std::vector<double> lam(n), mu(n), rho(n), taper(n);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const size_t q = size_t(j) * nx + i;
      const double x = i - nx / 2.0, y = j - ny / 2.0;
      lam[q] = j < ny / 2 ? 4.0e9 : 6.0e9;
      mu[q] = j < ny / 2 ? 2.0e9 : 3.5e9;
      rho[q] = j < ny / 2 ? 2000.0 : 2400.0;
      const int edge = std::min(std::min(i, nx - 1 - i), std::min(j, ny - 1 - j));
      taper[q] = edge < 5 ? 1.0 - 0.01 * (5 - edge) : 1.0;
      u1[q] = std::exp(-(x * x + y * y) / 8.0);
      u0[q] = 0.98 * u1[q];
      v1[q] = 0.5 * std::exp(-((x - 2) * (x - 2) + y * y) / 8.0);
      v0[q] = v1[q];
    }
  double *uPrev = u0.data(), *uCur = u1.data(), *vPrev = v0.data(), *vCur = v1.data();
  for (int t = 0; t < steps; ++t) {
#pragma stencil coupled_elastic_legacy
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const int c = j * nx + i, e = c + 1, w = c - 1, north = c + nx, south = c - nx;
        const double uxx = uCur[e] - 2.0 * uCur[c] + uCur[w];
        const double uyy = uCur[north] - 2.0 * uCur[c] + uCur[south];
        const double vxx = vCur[e] - 2.0 * vCur[c] + vCur[w];
        const double vyy = vCur[north] - 2.0 * vCur[c] + vCur[south];
        const double uxy =
            0.25 * (uCur[north + 1] - uCur[north - 1] - uCur[south + 1] + uCur[south - 1]);
        const double vxy =
            0.25 * (vCur[north + 1] - vCur[north - 1] - vCur[south + 1] + vCur[south - 1]);
        uPrev[c] =
            2.0 * uCur[c] - uPrev[c] +
            s / rho[c] * ((lam[c] + 2.0 * mu[c]) * uxx + mu[c] * uyy + (lam[c] + mu[c]) * vxy);
        vPrev[c] =
            2.0 * vCur[c] - vPrev[c] +
            s / rho[c] * ((lam[c] + mu[c]) * uxy + mu[c] * vxx + (lam[c] + 2.0 * mu[c]) * vyy);
        uPrev[c] *= taper[c];
        vPrev[c] *= taper[c];
        avg[c] = 0.5 * (uPrev[c] + vPrev[c]);
      }
    double *tu = uPrev, *tv = vPrev;
    uPrev = uCur;
    uCur = tu;
    vPrev = vCur;
    vCur = tv;
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t q = 0; q < n; ++q)
    std::fprintf(out, "%.17g\n%.17g\n%.17g\n", uCur[q], vCur[q], avg[q]);
  std::fclose(out);
  return 0;
}
