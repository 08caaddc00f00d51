// Unmarked loop nests for `lift --all` (../unsupported-body.test): one lifts
// with a temporary and two outputs, one does not (std::max).
#include <algorithm>

constexpr int N = 16;
float a[N * N], b[N * N], in[N * N];

void both() {
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i) {
      const float sum = in[j * N + i - 1] + in[j * N + i + 1];
      a[j * N + i] = 0.5f * sum;
      b[j * N + i] = sum - in[j * N + i];
    }
}

void clipped() {
  for (int j = 1; j < N - 1; ++j)
    for (int i = 1; i < N - 1; ++i)
      a[j * N + i] = std::max(in[j * N + i - 1], 0.0f);
}
