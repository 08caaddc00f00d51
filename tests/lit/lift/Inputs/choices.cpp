// Per-point choices `lift` reads as the DSL's min, max and `?:`
// (../choices.test): std::min/std::max, the C library's fminf/fmaxf/fmin/fmax,
// and a conditional whose condition is one comparison, all of values at the
// loop point.
#include <algorithm>
#include <cmath>

constexpr int N = 32;
float a[N * N], b[N * N], in[N * N], vel[N * N], eta[N * N];
double c[N * N], din[N * N], dvel[N * N];

void clamped(float vmin, float vmax) {
#pragma stencil clamped
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const int p = j * N + i;
      const float v = std::max(std::min(vel[p], vmax), vmin);
      a[p] = v * fmaxf(vel[p], 0.5f) * (in[p - 1] + in[p + 1]) + fminf(eta[p], 1.0f) * in[p];
    }
}

void chosen(float limit) {
#pragma stencil chosen
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const int p = j * N + i;
      b[p] = (eta[p] >= limit ? 1.0f - eta[p] : 1.0f) * (in[p - 1] + in[p + 1]) +
             (eta[p] != 0.0f   ? 0.5f
              : eta[p] < -1.0f ? 0.25f
                               : 0.125f) *
                 in[p];
    }
}

void doubled() {
#pragma stencil doubled
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const int p = j * N + i;
      c[p] =
          std::fmin(dvel[p], 2.0) * (din[p - N] + din[p + N]) - fmax(dvel[p] - 1.0, 0.0) * din[p];
    }
}

void branched(float limit) {
#pragma stencil branched
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const int p = j * N + i;
      float damp = 1.0f;
      if (eta[p] > limit)
        damp = 1.0f - eta[p];
      float scale;
      if (vel[p] < 0.5f) {
        scale = 0.5f;
      } else {
        scale = vel[p];
      }
      a[p] = damp * scale * (in[p - 1] + in[p + 1]);
    }
}
