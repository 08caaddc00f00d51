// heat2d_legacy.cpp - A 2D heat solver written the way hand-made stencil code
// usually is: two static arrays indexed u[j][i], a five-point update in a
// double loop, and a pointer swap after every step. The loop nest is marked
// for `stencilc lift` / `stencilc rewrite` (tests/legacy/roundtrip.sh).
//
// Usage: heat2d_legacy OUT  -- writes the final field, one value per line.
#include <cstdio>
#include <utility>

constexpr int NX = 67; // odd sizes on purpose: no vector width divides them
constexpr int NY = 45;
constexpr int STEPS = 40;

static float bufferA[NY][NX];
static float bufferB[NY][NX];

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "heat2d.out";
  const float alpha = 0.8f, dt = 0.25f, h = 1.0f;
  float(*u)[NX] = bufferA;
  float(*un)[NX] = bufferB;
  // A hot square in a cool plate; the edges stay fixed (both buffers hold them).
  for (int j = 0; j < NY; ++j) {
    for (int i = 0; i < NX; ++i) {
      float value = (i > 20 && i < 40 && j > 10 && j < 30) ? 100.0f : 0.01f * float(i + j);
      u[j][i] = value;
      un[j][i] = value;
    }
  }

  for (int step = 0; step < STEPS; ++step) {
#pragma stencil heat2d_legacy
    for (int j = 1; j < NY - 1; ++j)
      for (int i = 1; i < NX - 1; ++i)
        un[j][i] =
            u[j][i] + alpha * dt / (h * h) *
                          (u[j][i - 1] + u[j][i + 1] + u[j - 1][i] + u[j + 1][i] - 4.0f * u[j][i]);
    std::swap(u, un);
  }

  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i)
      std::fprintf(out, "%.9g\n", u[j][i]);
  std::fclose(out);
  std::printf("heat2d: %d steps on %dx%d, u[%d][%d] = %g\n", STEPS, NX, NY, NY / 2, NX / 2,
              u[NY / 2][NX / 2]);
  return 0;
}
