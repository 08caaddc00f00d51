// Per-point choices `lift` must refuse (../choices.test), each with the reason
// at its location. Valid C++: only lifting fails.
#include <algorithm>
#include <cmath>

constexpr int N = 32;
float a[N * N], in[N * N], vel[N * N];

namespace mine {
float min(float x, float y) { return x < y ? y : x; } // not the library's min
} // namespace mine

void timeLevelInside() {
#pragma stencil time_level_inside
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = std::min(in[j * N + i], 1.0f) * (in[j * N + i - 1] + in[j * N + i + 1]);
}

void neighbourInside() {
#pragma stencil neighbour_inside
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = fmaxf(vel[j * N + i + 1], 0.5f) * in[j * N + i];
}

void notAComparison() {
#pragma stencil not_a_comparison
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = (vel[j * N + i] ? 1.0f : 0.5f) * in[j * N + i - 1];
}

void ownMin() {
#pragma stencil own_min
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = mine::min(vel[j * N + i], 1.0f) * in[j * N + i - 1];
}

void gnuConditional() {
#pragma stencil gnu_conditional
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = (vel[j * N + i] ?: 1.0f) * in[j * N + i - 1];
}

float max(float x, float y) { return x + y; } // a global max of one's own

void ownGlobalMax() {
#pragma stencil own_global_max
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = max(vel[j * N + i], 1.0f) * in[j * N + i - 1];
}

void oneSided() {
#pragma stencil one_sided
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      float v;
      if (vel[j * N + i] > 1.0f)
        v = 1.0f;
      a[j * N + i] = v * in[j * N + i - 1];
    }
}

void branchReadsNeighbour() {
#pragma stencil branch_reads_neighbour
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const int p = j * N + i;
      float lap = 0.0f;
      if (vel[p] > 1.0f)
        lap = in[p - 1] + in[p + 1];
      a[p] = lap;
    }
}
