// laplacian_levels_legacy.cpp - A 2D second-order wave step that keeps its
// two time levels in `double *p[2]` and picks them with `t % 2`: the
// Laplacian goes into a temporary, the new level is written over the oldest
// one in place, and the squared Courant number is a per-point array.
//
// Usage: laplacian_levels_legacy OUT [NX NY STEPS]  -- writes the final
// wavefield, one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "laplacian_levels.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 64;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 48;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 20;
  if (nx < 3 || ny < 3) {
    std::fprintf(stderr, "laplacian_levels_legacy: NX and NY must be at least 3\n");
    return 2;
  }
  std::vector<double> storage(2 * size_t(nx) * ny, 0.0), courant2(size_t(nx) * ny);
  double *p[2] = {storage.data(), storage.data() + size_t(nx) * ny};
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const double x = i - nx / 3.0, y = j - ny / 2.0;
      p[0][j * nx + i] = std::exp(-(x * x + y * y) / 20.0);
      p[1][j * nx + i] = p[0][j * nx + i];
      courant2[j * nx + i] = i < nx / 2 ? 0.16 : 0.25;
    }
  for (int t = 0; t < steps; ++t) {
#pragma stencil laplacian_levels_legacy
    for (int j = 1; j < ny - 1; j++) {
      for (int i = 1; i < nx - 1; i++) {
        const int pos = j * nx + i;
        const double lap = p[t % 2][pos - 1] + p[t % 2][pos + 1] + p[t % 2][pos - nx] +
                           p[t % 2][pos + nx] - 4.0 * p[t % 2][pos];
        p[(t + 1) % 2][pos] = 2.0 * p[t % 2][pos] - p[(t + 1) % 2][pos] + courant2[pos] * lap;
      }
    }
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t q = 0; q < size_t(nx) * ny; ++q)
    std::fprintf(out, "%.17g\n", p[steps % 2][q]);
  std::fclose(out);
  return 0;
}
