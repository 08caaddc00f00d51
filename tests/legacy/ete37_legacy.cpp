// ete37_legacy.cpp - The naive 37-point ETE operator (docs/DESIGN.md [1]),
// written as the papers' baseline code is: flat arrays addressed as
// pos + dx + line*dy + slice*dz, an index array holding each point's
// discretised velocity and a coefficient table c[j][idx[pos]] with one row
// per coefficient class, the new field written over the previous one:
//   p(t+dt) = 2 * sum_j c[j][idx] * p(x + dx_j, t) - p(t-dt)
// The loop nest is marked for `stencilc lift` / `stencilc rewrite`.
//
// Usage: ete37_legacy OUT  -- writes the final wavefield, one value per line.
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

constexpr int ND = 37;      // distinct velocities: the table's columns
constexpr int CLASSES = 11; // centre, x/y axis at 1..4, z axis at 1..4, xy and xz/yz diagonals
static float c[CLASSES][ND];

// One time step over the interior [4, n-4) of each axis.
void eteStep(float *pPrev, const float *pCur, const std::uint16_t *idx, int nx, int ny, int nz,
             int line, int slice) {
#pragma stencil ete37_legacy
  for (int k = 4; k < nz - 4; ++k) {
    for (int j = 4; j < ny - 4; ++j) {
      for (int i = 4; i < nx - 4; ++i) {
        const int pos = i + line * j + slice * k;
        pPrev[pos] =
            2.0f *
                (c[0][idx[pos]] * pCur[pos] +
                 c[1][idx[pos]] *
                     (pCur[pos - 1] + pCur[pos + 1] + pCur[pos - line] + pCur[pos + line]) +
                 c[2][idx[pos]] *
                     (pCur[pos - 2] + pCur[pos + 2] + pCur[pos - 2 * line] + pCur[pos + 2 * line]) +
                 c[3][idx[pos]] *
                     (pCur[pos - 3] + pCur[pos + 3] + pCur[pos - 3 * line] + pCur[pos + 3 * line]) +
                 c[4][idx[pos]] *
                     (pCur[pos - 4] + pCur[pos + 4] + pCur[pos - 4 * line] + pCur[pos + 4 * line]) +
                 c[5][idx[pos]] * (pCur[pos - slice] + pCur[pos + slice]) +
                 c[6][idx[pos]] * (pCur[pos - 2 * slice] + pCur[pos + 2 * slice]) +
                 c[7][idx[pos]] * (pCur[pos - 3 * slice] + pCur[pos + 3 * slice]) +
                 c[8][idx[pos]] * (pCur[pos - 4 * slice] + pCur[pos + 4 * slice]) +
                 c[9][idx[pos]] * (pCur[pos - 1 - line] + pCur[pos + 1 - line] +
                                   pCur[pos - 1 + line] + pCur[pos + 1 + line]) +
                 c[10][idx[pos]] *
                     (pCur[pos - 1 - slice] + pCur[pos + 1 - slice] + pCur[pos - 1 + slice] +
                      pCur[pos + 1 + slice] + pCur[pos - line - slice] + pCur[pos + line - slice] +
                      pCur[pos - line + slice] + pCur[pos + line + slice])) -
            pPrev[pos];
      }
    }
  }
}

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "ete37.out";
  const int nx = 37, ny = 29, nz = 23, steps = 6;
  // Rows padded to 40 elements, as aligned legacy codes do; the padding is never read.
  const int line = 40, slice = line * ny;
  const size_t n = size_t(slice) * nz;

  // Coefficients of a smoothing wave operator: each velocity's row adds up to
  // about one over the 37 points, so the field stays bounded.
  for (int v = 0; v < ND; ++v) {
    float s = 0.002f * float(v);
    float row[CLASSES] = {0.30f - s, 0.040f + s / 8, 0.012f, 0.006f,          0.002f, 0.035f,
                          0.010f,    0.005f,         0.002f, 0.010f + s / 16, 0.006f};
    for (int r = 0; r < CLASSES; ++r)
      c[r][v] = row[r];
  }
  std::vector<std::uint16_t> idx(n);
  std::vector<float> a(n), b(n);
  for (size_t p = 0; p < n; ++p) {
    idx[p] = std::uint16_t((p * 7919) % ND);
    a[p] = float((p * 37) % 101) / 101.0f;
    b[p] = float((p * 53) % 97) / 97.0f;
  }
  float *pPrev = a.data(), *pCur = b.data();
  for (int step = 0; step < steps; ++step) {
    eteStep(pPrev, pCur, idx.data(), nx, ny, nz, line, slice);
    std::swap(pPrev, pCur);
  }

  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        std::fprintf(out, "%.9g\n", pCur[i + line * j + slice * k]);
  std::fclose(out);
  std::printf("ete37: %d steps on %dx%dx%d, centre = %g\n", steps, nx, ny, nz,
              pCur[nx / 2 + line * (ny / 2) + slice * (nz / 2)]);
  return 0;
}
