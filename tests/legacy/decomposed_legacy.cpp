// decomposed_legacy.cpp - A 4th-order acoustic step split the way
// cache-blocking papers split a stencil: one loop nest writes the x part of
// the Laplacian into `lap` with `=`, the next adds the y and z parts with
// `+=` (each nest under its own OpenMP pragma), and a third nest advances the
// wavefield with it. The first two are one stencil; the third is another.
//
// Usage: decomposed_legacy OUT [NX NY NZ STEPS]  -- writes the final
// wavefield, one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "decomposed.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 32;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 28;
  const int nz = argc > 4 ? std::atoi(argv[4]) : 24;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 3;
  if (nx < 5 || ny < 5 || nz < 5) {
    std::fprintf(stderr, "decomposed_legacy: every size must be at least 5\n");
    return 2;
  }
  const long line = nx, slice = long(nx) * ny, n = slice * nz;
  const float c0 = -5.0f / 2.0f, c1 = 4.0f / 3.0f, c2 = -1.0f / 12.0f;
  std::vector<float> prev(n, 0.0f), cur(n, 0.0f), lap(n, 0.0f), vel(n);
  for (long q = 0; q < n; ++q) {
    const float x = float(q % nx - nx / 2), y = float((q / nx) % ny - ny / 2),
                z = float(q / slice - nz / 2);
    cur[q] = std::exp(-(x * x + y * y + z * z) / 5.0f);
    prev[q] = 0.9f * cur[q];
    vel[q] = q % 3 == 0 ? 0.08f : 0.1f;
  }
  for (int t = 0; t < steps; ++t) {
#pragma stencil laplacian_split
#pragma omp parallel for
    for (long k = 2; k < nz - 2; ++k)
      for (long j = 2; j < ny - 2; ++j)
        for (long i = 2; i < nx - 2; ++i) {
          const long pos = i + j * line + k * slice;
          lap[pos] = 3.0f * c0 * cur[pos] + c1 * (cur[pos - 1] + cur[pos + 1]) +
                     c2 * (cur[pos - 2] + cur[pos + 2]);
        }
        // The y and z parts, in a second sweep over the same box.
#pragma omp parallel for
    for (long k = 2; k < nz - 2; ++k)
      for (long j = 2; j < ny - 2; ++j)
        for (long i = 2; i < nx - 2; ++i) {
          const long pos = i + j * line + k * slice;
          lap[pos] +=
              c1 * (cur[pos - line] + cur[pos + line] + cur[pos - slice] + cur[pos + slice]);
          lap[pos] += c2 * (cur[pos - 2 * line] + cur[pos + 2 * line] + cur[pos - 2 * slice] +
                            cur[pos + 2 * slice]);
        }
#pragma stencil advance
#pragma omp parallel for
    for (long k = 2; k < nz - 2; ++k)
      for (long j = 2; j < ny - 2; ++j)
        for (long i = 2; i < nx - 2; ++i) {
          const long pos = i + j * line + k * slice;
          prev[pos] = 2.0f * cur[pos] - prev[pos] + vel[pos] * lap[pos];
        }
    std::swap(prev, cur);
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (long q = 0; q < n; ++q)
    std::fprintf(out, "%.9g\n", cur[q]);
  std::fclose(out);
  return 0;
}
