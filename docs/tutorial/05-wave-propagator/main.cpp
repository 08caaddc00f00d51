//===- main.cpp - Lesson 05: a 3D acoustic wave propagator -----------------===//
//
// Steps wave.stencil in a time loop: a Ricker wavelet injected at one grid
// point after every step, the pressure recorded at a line of receivers, and
// the first arrival picked on each trace. The apparent velocity of the
// arrivals must be the medium's.
//
//===----------------------------------------------------------------------===//
#include "wave.h" // stencilc_add_kernels(... STENCILS wave.stencil)

#include <stencilc/Grid.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <utility>
#include <vector>

namespace rt = stencilc::rt;
namespace wave = stencilc_kernels::wave;

namespace {

constexpr int nx = 120, ny = 40, nz = 40, steps = 250;
constexpr double h = 10.0, v = 2000.0; // metres, metres per second
// The time step from the stability limit: v dt / h must stay below 0.4529
// for this stencil (`stencilc analyze wave.stencil`); 0.4 leaves a margin.
constexpr double courant = 0.4, dt = courant * h / v;

constexpr double frequency = 25.0, delay = 1.2 / frequency; // Ricker peak frequency, t0
constexpr int sx = 20, sy = ny / 2, sz = nz / 2;            // the source's grid point
constexpr int receivers = 8, firstReceiver = sx + 10, receiverStep = 10; // every 100 m in x

/// The Ricker wavelet (1 - 2a^2) exp(-a^2), a = pi f (t - t0).
double ricker(double t) {
  const double a = std::numbers::pi * frequency * (t - delay);
  return (1 - 2 * a * a) * std::exp(-a * a);
}

template <typename T> T &at(const rt::FieldView<T> &f, int i, int j, int k) {
  return f.origin[i + j * f.line + k * f.plane];
}

} // namespace

int main() {
  // Two wavefield levels (the third, u_next, is written over u_prev in
  // place) and the velocity; the halo of kRadius = 4 points stays 0: a
  // pressure-free boundary, far enough that its echoes come after the
  // direct wave at every receiver.
  auto level0 = rt::Grid<float>::make3d(nx, ny, nz, wave::kRadius);
  auto level1 = rt::Grid<float>::make3d(nx, ny, nz, wave::kRadius);
  auto velocity = rt::Grid<float>::make3d(nx, ny, nz, wave::kRadius);
  velocity.forEachInteriorPoint([&](int i, int j, int k) { velocity(i, j, k) = float(v); });

  wave::Args args;
  args.extent = {nx, ny, nz};
  args.u_prev = rt::view(std::as_const(level0));
  args.u = rt::view(std::as_const(level1));
  args.u_next = rt::view(level0); // in place: u_next overwrites u_prev
  args.v = rt::view(std::as_const(velocity));
  args.dt = float(dt);
  args.h = float(h);

  // traces[r][s]: receiver r at t = s dt; sample 0, the zero initial field.
  std::vector<std::vector<float>> traces(receivers, std::vector<float>(steps + 1, 0.0f));
  for (int step = 0; step < steps; ++step) {
    wave::run(args);
    wave::rotate(args); // args.u is now the level just computed, at t = (step + 1) dt
    // The source term of d2u/dt2 = v^2 (laplacian(u) + r(t) delta(x - xs)):
    // a point source's delta is 1 / h^3 at one grid point, and the leapfrog
    // step multiplies the right-hand side by dt^2.
    at(rt::writableView(args.u), sx, sy, sz) +=
        float(dt * dt * v * v * ricker(step * dt) / (h * h * h));
    for (int r = 0; r < receivers; ++r)
      traces[r][step + 1] = at(args.u, firstReceiver + r * receiverStep, sy, sz);
  }

  std::printf("grid %d x %d x %d, h = %.0f m, v = %.0f m/s, dt = %.1f ms (Courant number %.2f), "
              "%d steps\n",
              nx, ny, nz, h, v, dt * 1e3, courant, steps);
  std::printf(
      "Ricker source, %.0f Hz, at grid point (%d, %d, %d); %d receivers every %.0f m along x\n",
      frequency, sx, sy, sz, receivers, receiverStep * h);
  // The equation above has the solution r(t - d / v) / (4 pi d) at distance d
  // from the source: a direct wave whose peak is 1 / (4 pi d). The first
  // arrival is the first sample above a tenth of that; the peak is the
  // largest sample in the next 20 steps (40 ms), before the echoes from the
  // sides of the grid arrive.
  std::printf("receiver  offset (m)  first arrival (step)  (ms)  peak x 4 pi offset\n");
  double so = 0, st = 0, soo = 0, sot = 0; // for a least-squares line t = t1 + offset / v
  bool later = true, scaled = true;
  int previous = -1;
  for (int r = 0; r < receivers; ++r) {
    const double offset = (firstReceiver + r * receiverStep - sx) * h;
    const double predictedPeak = 1 / (4 * std::numbers::pi * offset);
    int pick = 0;
    while (std::abs(traces[r][pick]) < 0.1 * predictedPeak)
      ++pick;
    float peak = 0;
    for (int s = pick; s < std::min(pick + 20, steps + 1); ++s)
      peak = std::max(peak, traces[r][s]);
    const double t = pick * dt, relativePeak = peak / predictedPeak;
    std::printf("%8d  %10.0f  %20d  %4.0f  %s\n", r, offset, pick, t * 1e3,
                std::abs(relativePeak - 1) < 0.1 ? "1 within 10 %" : "NO");
    so += offset, st += t, soo += offset * offset, sot += offset * t;
    later &= pick > previous;
    scaled &= std::abs(relativePeak - 1) < 0.1;
    previous = pick;
  }
  const double slope = (receivers * sot - so * st) / (receivers * soo - so * so);
  std::printf("arrivals later at every receiver further away: %s\n", later ? "yes" : "NO");
  std::printf("apparent velocity from the arrivals: %.0f m/s, within 2 %% of v: %s\n", 1 / slope,
              std::abs(1 / slope - v) < 0.02 * v ? "yes" : "NO");
  return later && scaled && std::abs(1 / slope - v) < 0.02 * v ? 0 : 1;
}
