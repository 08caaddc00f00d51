// pml_legacy.cpp - A 2D acoustic step with an absorbing layer written the
// way simple damping-layer codes write it: a per-point damping profile
// `sigma` (zero inside, growing towards the edges) enters as
//   p_new = ((2 - sigma^2) p - (1 - sigma) p_old + v^2 lap) / (1 + sigma),
// the Laplacian in a `const float` temporary, and the new level written over
// the old one, exchanged with std::swap.
//
// Usage: pml_legacy OUT [NX NY STEPS]  -- writes the final wavefield, one
// value per line.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "pml.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 80;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 60;
  const int steps = argc > 4 ? std::atoi(argv[4]) : 4;
  const int layer = 10;
  if (nx < 3 || ny < 3) {
    std::fprintf(stderr, "pml_legacy: NX and NY must be at least 3\n");
    return 2;
  }
  const size_t n = size_t(nx) * ny;
  std::vector<float> old(n, 0.0f), cur(n, 0.0f), sigma(n), v2(n);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const size_t q = size_t(j) * nx + i;
      const int edge = std::min(std::min(i, nx - 1 - i), std::min(j, ny - 1 - j));
      const float depth = edge < layer ? float(layer - edge) / layer : 0.0f;
      sigma[q] = 0.3f * depth * depth;
      v2[q] = i < nx / 2 ? 0.2f : 0.12f;
      const float x = float(i - nx / 2), y = float(j - ny / 2);
      cur[q] = std::exp(-(x * x + y * y) / 12.0f);
      old[q] = cur[q];
    }
  for (int t = 0; t < steps; ++t) {
#pragma stencil pml_legacy
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i) {
        const int q = j * nx + i;
        const float lap = cur[q - 1] + cur[q + 1] + cur[q - nx] + cur[q + nx] - 4.0f * cur[q];
        old[q] =
            ((2.0f - sigma[q] * sigma[q]) * cur[q] - (1.0f - sigma[q]) * old[q] + v2[q] * lap) /
            (1.0f + sigma[q]);
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
