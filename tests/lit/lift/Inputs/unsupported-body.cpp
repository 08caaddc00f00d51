// Loop bodies `lift` must refuse (../unsupported-body.test), each with the
// reason at its location. Valid C++: only lifting fails.
#include <algorithm>

constexpr int N = 32;
float a[N * N], b[N * N], in[N * N], coeff[8];
double d[N * N];

void neighbourAfterWrite() {
#pragma stencil after_write
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      a[j * N + i] = in[j * N + i];
      b[j * N + i] = a[j * N + i - 1];
    }
}

void neighbourBeforeWrite() {
#pragma stencil before_write
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      a[j * N + i] = b[j * N + i + 1];
      b[j * N + i] = in[j * N + i];
    }
}

void minimum() {
#pragma stencil minimum
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = std::min(in[j * N + i - 1], in[j * N + i + 1]);
}

void conditional(float limit) {
#pragma stencil conditional
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = limit > 0 ? in[j * N + i - 1] : in[j * N + i + 1];
}

void runtimeRadius(int radius) {
#pragma stencil runtime_radius
  for (int j = 4; j < N - 4; ++j)
    for (int i = 4; i < N - 4; ++i) {
      float v = 0.0f;
      for (int r = 1; r <= radius; ++r)
        v += in[j * N + i - r];
      a[j * N + i] = v;
    }
}

void longInnerLoop() {
#pragma stencil long_inner_loop
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      float v = 0.0f;
      for (int r = 0; r < 100; ++r)
        v += in[j * N + i];
      a[j * N + i] = v;
    }
}

void unassigned() {
#pragma stencil unassigned
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      float v;
      a[j * N + i] = v + in[j * N + i + 1];
    }
}

void outerAccumulator(float &total) {
#pragma stencil outer_accumulator
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      a[j * N + i] = in[j * N + i + 1];
      total += a[j * N + i];
    }
}

void crossedInPlace() {
#pragma stencil crossed_in_place
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const float oldA = a[j * N + i];
      a[j * N + i] += b[j * N + i] + in[j * N + i + 1];
      b[j * N + i] += oldA + in[j * N + i - 1];
    }
}

void mixedTypes() {
#pragma stencil mixed_types
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      a[j * N + i] = in[j * N + i + 1];
      d[j * N + i] = 2.0 * d[j * N + i];
    }
}

void shiftedCoefficient(int m) {
#pragma stencil shifted_coefficient
  for (int j = 2; j < N - 2; ++j)
    for (int i = 2; i < N - 2; ++i) {
      float v = 0.0f;
      for (int r = 1; r <= 2; ++r)
        v += coeff[r + m] * in[j * N + i + r];
      a[j * N + i] = v;
    }
}

void levelByInnerCounter(float *levels[2]) {
#pragma stencil level_by_inner_counter
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      float v = 0.0f;
      for (int r = 0; r < 2; ++r)
        v += levels[r][j * N + i + 1];
      a[j * N + i] = v;
    }
}
