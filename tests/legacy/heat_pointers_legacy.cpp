// heat_pointers_legacy.cpp - An explicit 2D heat solver in C style: arrays
// from `new double[]` addressed as u[j * nx + i], inclusive bounds (`<=`),
// `i += 1` steps, a per-point conductivity, and the old and new fields
// exchanged by swapping raw pointers after each step.
//
// Usage: heat_pointers_legacy OUT [NX NY STEPS]  -- writes the final field,
// one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "heat_pointers.out";
  const long nx = argc > 2 ? std::atol(argv[2]) : 70;
  const long ny = argc > 3 ? std::atol(argv[3]) : 50;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 40;
  if (nx < 3 || ny < 3) {
    std::fprintf(stderr, "heat_pointers_legacy: NX and NY must be at least 3\n");
    return 2;
  }
  double *u = new double[nx * ny], *un = new double[nx * ny], *kappa = new double[nx * ny];
  for (long j = 0; j < ny; ++j)
    for (long i = 0; i < nx; ++i) {
      u[j * nx + i] = (i > nx / 3 && i < nx / 2 && j > ny / 3 && j < ny / 2) ? 100.0 : 0.0;
      un[j * nx + i] = u[j * nx + i];
      kappa[j * nx + i] = 0.1 + 0.1 * double(i) / double(nx);
    }
  const double dt = 0.5, h = 1.0;
  for (int t = 0; t < steps; ++t) {
#pragma stencil heat_pointers_legacy
    for (long j = 1; j <= ny - 2; j += 1)
      for (long i = 1; i <= nx - 2; i += 1)
        un[j * nx + i] =
            u[j * nx + i] + dt / (h * h) * kappa[j * nx + i] *
                                (u[j * nx + i + 1] + u[j * nx + i - 1] + u[(j + 1) * nx + i] +
                                 u[(j - 1) * nx + i] - 4.0 * u[j * nx + i]);
    double *tmp = u;
    u = un;
    un = tmp;
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (long q = 0; q < nx * ny; ++q)
    std::fprintf(out, "%.17g\n", u[q]);
  std::fclose(out);
  delete[] u;
  delete[] un;
  delete[] kappa;
  return 0;
}
