// levels3_legacy.cpp - A 3D second-order wave step that keeps three time
// levels in a std::vector of std::vector<float> and indexes them modulo 3
// (`u[(t + 2) % 3]` is written from `u[(t + 1) % 3]` and `u[t % 3]`), with
// size_t counters, `#pragma omp parallel for` on the outer loop and
// `#pragma omp simd` on the inner one.
//
// Usage: levels3_legacy OUT [NX NY NZ STEPS]  -- writes the final wavefield,
// one value per line.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "levels3.out";
  const std::size_t nx = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 28;
  const std::size_t ny = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 24;
  const std::size_t nz = argc > 4 ? std::strtoul(argv[4], nullptr, 10) : 20;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 4;
  if (nx < 3 || ny < 3 || nz < 3) {
    std::fprintf(stderr, "levels3_legacy: every size must be at least 3\n");
    return 2;
  }
  const std::size_t n = nx * ny * nz;
  const float courant2 = 0.15f;
  std::vector<std::vector<float>> u(3, std::vector<float>(n, 0.0f));
  for (std::size_t q = 0; q < n; ++q) {
    const float x = float(q % nx) - float(nx) / 2, y = float((q / nx) % ny) - float(ny) / 2,
                z = float(q / (nx * ny)) - float(nz) / 2;
    u[1][q] = std::exp(-(x * x + y * y + z * z) / 4.0f);
    u[0][q] = u[1][q];
  }
  for (int t = 0; t < steps; ++t) {
#pragma stencil levels3_legacy
#pragma omp parallel for
    for (std::size_t k = 1; k < nz - 1; ++k) {
      for (std::size_t j = 1; j < ny - 1; ++j) {
#pragma omp simd
        for (std::size_t i = 1; i < nx - 1; ++i) {
          const std::size_t c = (k * ny + j) * nx + i;
          u[(t + 2) % 3][c] =
              2.0f * u[(t + 1) % 3][c] - u[t % 3][c] +
              courant2 * (u[(t + 1) % 3][c - 1] + u[(t + 1) % 3][c + 1] + u[(t + 1) % 3][c - nx] +
                          u[(t + 1) % 3][c + nx] + u[(t + 1) % 3][c - nx * ny] +
                          u[(t + 1) % 3][c + nx * ny] - 6.0f * u[(t + 1) % 3][c]);
        }
      }
    }
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (std::size_t q = 0; q < n; ++q)
    std::fprintf(out, "%.9g\n", u[(steps + 1) % 3][q]);
  std::fclose(out);
  return 0;
}
