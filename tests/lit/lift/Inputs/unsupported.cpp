// Loop nests that `stencilc lift` must refuse, each with the reason at its
// location (checked by ../unsupported.test). Valid C++: only lifting fails.
#include <cmath>
#include <cstdint>

constexpr int N = 32;
float a[N][N], b[N][N], w[N][N];
float table[4][16];
int perm[N];

void oneDimensional(float *out, const float *in) {
#pragma stencil one_d
  for (int i = 1; i < N - 1; ++i)
    out[i] = in[i - 1] + in[i + 1];
}

void compoundAssignment() {
#pragma stencil accumulate
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j][i] += 0.5f * a[j][i + 1];
}

void gaussSeidel() {
#pragma stencil gauss_seidel
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j][i] = 0.25f * (a[j][i - 1] + a[j][i + 1] + a[j - 1][i] + a[j + 1][i]);
}

void twoStatements() {
#pragma stencil two_statements
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      if (b[j][i] > 0)
        a[j][i] = b[j][i];
    }
}

void productOfCounters() {
#pragma stencil diagonal_walk
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i)
      a[j][i] = b[0][i * j];
}

void indirectSubscript() {
#pragma stencil gather
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      a[j][i] = b[j][perm[i]];
}

void positionDependent() {
#pragma stencil ramp
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      a[j][i] = b[j][i] * i;
}

void columnMajor() {
#pragma stencil transposed
  for (int i = 1; i < N - 1; ++i)
    for (int j = 1; j < N - 1; ++j)
      a[j][i] = b[j][i - 1] + b[j][i + 1];
}

void unsupportedCall() {
#pragma stencil power
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      a[j][i] = std::pow(b[j][i], 2.0f);
}

void variableTableRow(const std::uint16_t *idx, int row) {
#pragma stencil table_row
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j][i] = table[row][idx[i + N * j]] * b[j][i + 1];
}

void triangular() {
#pragma stencil triangle
  for (int j = 1; j < N - 1; ++j)
    for (int i = j; i < N - 1; ++i)
      a[j][i] = b[j][i + 1] - b[j][i - 1];
}

void twoWavefields() {
#pragma stencil nonlinear
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j][i] = b[j][i + 1] * b[j][i - 1];
}

void writesNeighbour() {
#pragma stencil shifted_write
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j][i + 1] = b[j][i];
}

void notBeforeLoop() {
  float s = 0;
#pragma stencil lonely
  s += 1;
  for (int j = 0; j < N; ++j)
    for (int i = 0; i < N; ++i)
      a[j][i] = s * b[j][i];
}
