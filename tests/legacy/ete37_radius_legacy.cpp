// ete37_radius_legacy.cpp - The 37-point ETE operator written with an inner
// loop over the radius, as optimised seismic codes write it: for each
// distance r a coefficient c[r][vidx[pos]] of the point's velocity class
// multiplies the four in-plane neighbours and c[4 + r][vidx[pos]] the two
// along z, then the diagonals; uint8_t velocity indices, a damping factor
// per point at the edges, an OpenMP-collapsed nest, and the two wavefields
// swapped with std::swap.
//
// Usage: ete37_radius_legacy OUT [NX NY NZ STEPS]  -- writes the final
// wavefield, one value per line (larger sizes time it).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

constexpr int ND = 24;      // velocity classes: the table's columns
constexpr int CLASSES = 11; // centre, in-plane axes 1..4, z axis 1..4, xy and xz/yz diagonals
static float c[CLASSES][ND];

void step(float *pNext, const float *pCur, const std::uint8_t *vidx, const float *damp, int nx,
          int ny, int nz) {
  const int line = nx, slice = nx * ny;
#pragma stencil ete37_radius_legacy
#pragma omp parallel for collapse(2) schedule(static)
  for (int k = 4; k < nz - 4; ++k)
    for (int j = 4; j < ny - 4; ++j)
      for (int i = 4; i < nx - 4; ++i) {
        const int pos = i + j * line + k * slice;
        float value = c[0][vidx[pos]] * pCur[pos];
        for (int r = 1; r <= 4; ++r) {
          value += c[r][vidx[pos]] *
                   (pCur[pos - r] + pCur[pos + r] + pCur[pos - r * line] + pCur[pos + r * line]);
          value += c[4 + r][vidx[pos]] * (pCur[pos - r * slice] + pCur[pos + r * slice]);
        }
        value += c[9][vidx[pos]] * (pCur[pos - 1 - line] + pCur[pos + 1 - line] +
                                    pCur[pos - 1 + line] + pCur[pos + 1 + line]);
        value += c[10][vidx[pos]] *
                 (pCur[pos - 1 - slice] + pCur[pos + 1 - slice] + pCur[pos - 1 + slice] +
                  pCur[pos + 1 + slice] + pCur[pos - line - slice] + pCur[pos + line - slice] +
                  pCur[pos - line + slice] + pCur[pos + line + slice]);
        pNext[pos] = damp[pos] * (2.0f * value - damp[pos] * pNext[pos]);
      }
}

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "ete37_radius.out";
  const int nx = argc > 2 ? std::atoi(argv[2]) : 34;
  const int ny = argc > 3 ? std::atoi(argv[3]) : 30;
  const int nz = argc > 4 ? std::atoi(argv[4]) : 26;
  const int steps = argc > 5 ? std::atoi(argv[5]) : 3;
  if (nx <= 8 || ny <= 8 || nz <= 8) {
    std::fprintf(stderr, "ete37_radius_legacy: every size must exceed 8\n");
    return 2;
  }
  // Coefficients per class and velocity: a made-up family that weighs the
  // neighbours less as the velocity class grows (a stable averaging operator).
  const float weights[CLASSES] = {0.2f,  0.05f, 0.02f,  0.01f, 0.005f, 0.04f,
                                  0.02f, 0.01f, 0.005f, 0.01f, 0.005f};
  for (int v = 0; v < ND; ++v)
    for (int row = 0; row < CLASSES; ++row)
      c[row][v] = weights[row] * (row == 0 ? 1.0f + 0.02f * float(v) : 1.0f - 0.01f * float(v));
  const size_t n = size_t(nx) * ny * nz;
  std::vector<float> a(n, 0.0f), b(n, 0.0f), damp(n);
  std::vector<std::uint8_t> vidx(n);
  for (size_t q = 0; q < n; ++q) {
    const int i = int(q % nx), j = int((q / nx) % ny), k = int(q / (size_t(nx) * ny));
    vidx[q] = std::uint8_t((i + 2 * j + 3 * k) % ND);
    const int edge = std::min(std::min(std::min(i, nx - 1 - i), std::min(j, ny - 1 - j)),
                              std::min(k, nz - 1 - k));
    damp[q] = edge < 8 ? 1.0f - 0.02f * float(8 - edge) : 1.0f;
    const float x = float(i - nx / 2), y = float(j - ny / 2), z = float(k - nz / 2);
    a[q] = std::exp(-(x * x + y * y + z * z) / 6.0f);
    b[q] = 0.97f * a[q];
  }
  const auto loopStart = std::chrono::steady_clock::now();
  for (int t = 0; t < steps; ++t) {
    step(b.data(), a.data(), vidx.data(), damp.data(), nx, ny, nz);
    std::swap(a, b); // the new level (written over the old one) becomes current
  }
  // The time loop alone, to stderr (the output file is what round trips compare).
  std::fprintf(stderr, "time loop: %.6f s\n",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - loopStart).count());
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t q = 0; q < n; ++q)
    std::fprintf(out, "%.9g\n", a[q]);
  std::fclose(out);
  return 0;
}
