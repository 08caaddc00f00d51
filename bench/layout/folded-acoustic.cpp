// An experiment, not part of the product: acoustic_iso8's step (8th-order
// Laplacian, 25 points, velocity per point) on a vector-folded layout, the
// layout YASK uses on AVX-512 machines, to measure whether folding would pay
// before any of it is built into stencilc (docs/PERFORMANCE.md §Vector folding).
//
// Layout: one 16-float vector holds FX (x) by 16 / FX (y) points, FX = 4, 8
// or 16 (FOLD_X, default 4; 16 is the row layout with 64-byte vectors); the
// vectors of a plane are stored x fastest. Every neighbour in z is an aligned
// vector; an x or y offset that is a multiple of the fold is another aligned
// vector, any other a two-source lane permute of two. With 4 × 4, a block of
// 16 points loads 13 aligned vectors instead of 25 unaligned ones.
//
//   g++ -std=c++20 -O3 -march=native -fopenmp folded-acoustic.cpp -o folded
//   ./folded check            # against a scalar loop; time tiles against single sweeps
//   ./folded time NX NY NZ STEPS ROUNDS [BX [BY [DEPTH BZ]]]  # s a step, median of ROUNDS
//   ./folded incore NX REPEATS   # one thread, every operand in L1
//
// NX must be a multiple of FX and NY of 16 / FX. Single sweeps (DEPTH 1) cut
// each plane into blocks of BX x vectors by BY rows (0: the whole extent),
// each swept through every z plane by one thread; DEPTH > 1 makes DEPTH steps
// a pass over parallelogram time tiles of BY rows by BZ planes, whole x rows.
#include <immintrin.h>
#include <omp.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr int kRadius = 4;
// Weights of the 9-point 8th-order second difference.
constexpr float kW[5] = {-205.0f / 72, 8.0f / 5, -1.0f / 5, 8.0f / 315, -1.0f / 560};

constexpr long floorDiv(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/// A field folded FX (x) by FY = 16 / FX (y) points a vector, with halos of whole vectors at
/// least kRadius points deep. FX = 16 is the row layout with 64-byte vectors.
template <int FX> struct Folded {
  static constexpr int FY = 16 / FX;
  static constexpr long HX = FX * ((kRadius + FX - 1) / FX), HY = FY * ((kRadius + FY - 1) / FY);
  long nx, ny, nz;  // interior
  long px, py, pz;  // padded extents
  long rowStride;   // floats between vector rows (FY rows of points)
  long planeStride; // floats between z planes
  float *data = nullptr;
  float *base = nullptr;
  size_t bytes = 0;

  // `stagger` vectors of offset keep the fields from sharing their 4 KiB offsets, which would
  // make every store look like it aliases the loads of the other fields.
  Folded(long x, long y, long z, int stagger = 0) : nx(x), ny(y), nz(z) {
    px = nx + 2 * HX, py = ny + 2 * HY, pz = nz + 2 * kRadius;
    rowStride = (px / FX) * 16 + 16; // one spare vector breaks power-of-two strides
    planeStride = (py / FY) * rowStride + 16;
    bytes = size_t(pz * planeStride) * sizeof(float);
    size_t align = 2 << 20;
    size_t total = (bytes + 4096 + align - 1) / align * align;
    base = static_cast<float *>(std::aligned_alloc(align, total));
    madvise(base, total, MADV_HUGEPAGE);
    data = base + 16 * 5 * stagger;
  }
  ~Folded() { std::free(base); }
  Folded(const Folded &) = delete;
  Folded &operator=(const Folded &) = delete;
  // (x, y, z) counted from the padded origin.
  long at(long x, long y, long z) const {
    return z * planeStride + (y / FY) * rowStride + (x / FX) * 16 + (y % FY) * FX + (x % FX);
  }
  long xvBegin() const { return HX / FX; }
  long xvEnd() const { return (HX + nx) / FX; }
  long yvBegin() const { return HY / FY; }
  long yvEnd() const { return (HY + ny) / FY; }
};

/// Where the points at offset k along an axis folded `fold` points a vector are: the vector
/// `whole` vectors away where k is a multiple of the fold, else lanes of that one (from lane
/// `rest` on) and the next.
struct ShiftPlan {
  long whole;
  int rest;
};
constexpr ShiftPlan shiftPlan(int k, int fold) {
  const long whole = floorDiv(k, fold);
  return {whole, int(k - whole * fold)};
}

/// The permute indices of every offset that is not a whole vector away.
template <int FX> struct Shifts {
  static constexpr int FY = 16 / FX;
  __m512i index[2][2 * kRadius + 1]; // [axis][k + kRadius]
  Shifts() {
    for (int axis = 0; axis < 2; ++axis)
      for (int k = -kRadius; k <= kRadius; ++k) {
        const int r = shiftPlan(k, axis == 0 ? FX : FY).rest;
        alignas(64) int idx[16];
        for (int yy = 0; yy < FY; ++yy)
          for (int xx = 0; xx < FX; ++xx) {
            int l = yy * FX + xx;
            if (axis == 0)
              idx[l] = xx + r < FX ? l + r : 16 + yy * FX + (xx + r - FX);
            else
              idx[l] = yy + r < FY ? (yy + r) * FX + xx : 16 + (yy + r - FY) * FX + xx;
          }
        index[axis][k + kRadius] = _mm512_load_si512(idx);
      }
  }
  /// The points at offset K along `Axis` (0: x, 1: y) of the vector at p; `step` floats
  /// between vectors along that axis.
  template <int Axis, int K> __m512 at(const float *p, long step) const {
    constexpr ShiftPlan plan = shiftPlan(K, Axis == 0 ? FX : FY);
    const float *q = p + plan.whole * step;
    if constexpr (plan.rest == 0)
      return _mm512_load_ps(q);
    else
      return _mm512_permutex2var_ps(_mm512_load_ps(q), index[Axis][K + kRadius],
                                    _mm512_load_ps(q + step));
  }
};

// One step over x vectors [xv0, xv1), vector rows [yv0, yv1) and z planes [z0, z1), z outermost,
// so that the nine planes a block reads stay in cache between its z steps.
template <int FX>
void stepBox(const Folded<FX> &g, float *next, const float *u, const float *prev, const float *vel,
             float scale, long xv0, long xv1, long yv0, long yv1, long z0, long z1,
             const Shifts<FX> &sh) {
  const long rs = g.rowStride, ps = g.planeStride;
  __m512 c[5];
  c[0] = _mm512_set1_ps(3 * kW[0] * scale);
  for (int k = 1; k <= 4; ++k)
    c[k] = _mm512_set1_ps(kW[k] * scale);
  const __m512 two = _mm512_set1_ps(2.0f);
  for (long z = z0; z < z1; ++z)
    for (long yv = yv0; yv < yv1; ++yv) {
      const long base = z * ps + yv * rs;
      for (long xv = xv0; xv < xv1; ++xv) {
        const long o = base + xv * 16;
        const float *p = u + o;
        const __m512 C = _mm512_load_ps(p);
        __m512 lap = _mm512_mul_ps(c[0], C);
        auto term = [&]<int K>() {
          __m512 sum = _mm512_add_ps(
              _mm512_add_ps(sh.template at<0, K>(p, 16), sh.template at<0, -K>(p, 16)),
              _mm512_add_ps(sh.template at<1, K>(p, rs), sh.template at<1, -K>(p, rs)));
          sum = _mm512_add_ps(
              sum, _mm512_add_ps(_mm512_load_ps(p + K * ps), _mm512_load_ps(p - K * ps)));
          lap = _mm512_fmadd_ps(c[K], sum, lap);
        };
        term.template operator()<1>();
        term.template operator()<2>();
        term.template operator()<3>();
        term.template operator()<4>();
        __m512 v = _mm512_load_ps(vel + o);
        __m512 out = _mm512_fmsub_ps(two, C, _mm512_load_ps(prev + o));
        out = _mm512_fmadd_ps(_mm512_mul_ps(v, v), lap, out);
#ifdef FOLDED_STREAM_STORES
        _mm512_stream_ps(next + o, out);
#else
        _mm512_store_ps(next + o, out);
#endif
      }
    }
}
// by rows (a multiple of FY) by bx x vectors per block (0: the whole extent); the blocks are
// shared out among the threads, each marching its blocks through z.
template <int FX>
void step(const Folded<FX> &g, float *next, const float *u, const float *prev, const float *vel,
          float scale, long bx, long by, const Shifts<FX> &sh) {
  const long x0 = g.xvBegin(), x1 = g.xvEnd(), y0 = g.yvBegin(), y1 = g.yvEnd();
  const long bxv = bx > 0 ? bx : x1 - x0, byv = by > 0 ? std::max(1L, by / g.FY) : y1 - y0;
  const long nbx = (x1 - x0 + bxv - 1) / bxv, nby = (y1 - y0 + byv - 1) / byv;
#pragma omp parallel for schedule(dynamic, 1)
  for (long b = 0; b < nbx * nby; ++b) {
    long xa = x0 + (b % nbx) * bxv, ya = y0 + (b / nbx) * byv;
    stepBox(g, next, u, prev, vel, scale, xa, std::min(xa + bxv, x1), ya, std::min(ya + byv, y1),
            kRadius, g.pz - kRadius, sh);
  }
}

// `depth` steps in one pass over parallelogram tiles of by rows by bz planes, whole x rows, each
// level shifted back by the radius in y and z; the tiles of one diagonal run in parallel, the
// diagonals in order. Three buffers rotate: level t reads levels[(t + 1) % 3] and levels[t % 3]
// and writes levels[(t + 2) % 3].
template <int FX>
void stepsTiled(const Folded<FX> &g, float *const levels[3], const float *vel, float scale,
                int depth, long by, long bz, const Shifts<FX> &sh) {
  const long yb = g.yvBegin(), ye = g.yvEnd(), zb = kRadius, ze = g.pz - kRadius;
  const long skewY = (kRadius + g.FY - 1) / g.FY, byv = std::max(1L, by / g.FY);
  const long ny = (ye - yb + skewY * depth + byv - 1) / byv + 1;
  const long nz = (ze - zb + kRadius * depth + bz - 1) / bz + 1;
#pragma omp parallel
  for (long d = 0; d < ny + nz - 1; ++d) {
#pragma omp for schedule(dynamic, 1)
    for (long i = std::max(0L, d - nz + 1); i <= std::min(d, ny - 1); ++i) {
      const long j = d - i;
      for (int t = 0; t < depth; ++t) {
        long y0 = std::max(yb, yb + i * byv - skewY * t),
             y1 = std::min(ye, yb + (i + 1) * byv - skewY * t);
        long z0 = std::max(zb, zb + j * bz - kRadius * t),
             z1 = std::min(ze, zb + (j + 1) * bz - kRadius * t);
        if (y0 >= y1 || z0 >= z1)
          continue;
        stepBox(g, levels[(t + 2) % 3], levels[(t + 1) % 3], levels[t % 3], vel, scale, g.xvBegin(),
                g.xvEnd(), y0, y1, z0, z1, sh);
      }
    }
  }
}

template <int FX> void fill(const Folded<FX> &g, float *a, unsigned seed, float lo, float hi) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::memset(a, 0, g.bytes);
  for (long z = 0; z < g.pz; ++z)
    for (long y = 0; y < g.py; ++y)
      for (long x = 0; x < g.px; ++x)
        a[g.at(x, y, z)] = d(rng);
}

template <int FX> int check() {
  const long nx = 3 * FX, ny = 20, nz = 13;
  Folded<FX> u(nx, ny, nz, 0), prev(nx, ny, nz, 1), vel(nx, ny, nz, 2), next(nx, ny, nz, 3);
  const Folded<FX> &g = u;
  fill(g, u.data, 1, -1, 1), fill(g, prev.data, 2, -1, 1), fill(g, vel.data, 3, 0.5f, 1);
  const float scale = 1e-3f;
  Shifts<FX> sh;
  for (long bx : {0L, 2L}) {
    std::fill(next.data, next.data + next.bytes / 4, NAN);
    step(g, next.data, u.data, prev.data, vel.data, scale, bx, bx ? 3 * g.FY : 0, sh);
    double worst = 0;
    for (long z = kRadius; z < g.pz - kRadius; ++z)
      for (long y = g.HY; y < g.HY + ny; ++y)
        for (long x = g.HX; x < g.HX + nx; ++x) {
          double lap = 3 * kW[0] * u.data[g.at(x, y, z)];
          for (int k = 1; k <= 4; ++k)
            lap += kW[k] * (double(u.data[g.at(x + k, y, z)]) + u.data[g.at(x - k, y, z)] +
                            u.data[g.at(x, y + k, z)] + u.data[g.at(x, y - k, z)] +
                            u.data[g.at(x, y, z + k)] + u.data[g.at(x, y, z - k)]);
          double v = vel.data[g.at(x, y, z)];
          double want =
              2.0 * u.data[g.at(x, y, z)] - prev.data[g.at(x, y, z)] + v * v * scale * lap;
          double got = next.data[g.at(x, y, z)];
          worst = std::max(worst, std::isnan(got) ? INFINITY : std::fabs(got - want));
        }
    std::printf("check fold %dx%d, x blocks %ld: largest error %.3g\n", FX, g.FY, bx, worst);
    if (!(worst < 1e-5))
      return 1;
  }
  // Time tiles against single sweeps, bit for bit, on tiles that divide nothing.
  for (int depth : {1, 2, 3, 5}) {
    Folded<FX> a0(nx, ny, 19, 0), a1(nx, ny, 19, 1), a2(nx, ny, 19, 2);
    Folded<FX> b0(nx, ny, 19, 0), b1(nx, ny, 19, 1), b2(nx, ny, 19, 2), v(nx, ny, 19, 3);
    float *single[3] = {a0.data, a1.data, a2.data}, *tiled[3] = {b0.data, b1.data, b2.data};
    for (int k = 0; k < 3; ++k)
      fill(a0, single[k], 10 + k, -1, 1), fill(a0, tiled[k], 10 + k, -1, 1);
    fill(v, v.data, 3, 0.5f, 1);
    for (int t = 0; t < depth; ++t)
      step(a0, single[(t + 2) % 3], single[(t + 1) % 3], single[t % 3], v.data, scale, 0, 8, sh);
    stepsTiled(a0, tiled, v.data, scale, depth, 4 * g.FY > 4 ? 4 * g.FY : 8, 5, sh);
    bool same = true;
    for (int k = 0; k < 3; ++k)
      same = same && !std::memcmp(single[k], tiled[k], a0.bytes);
    std::printf("check fold %dx%d, time tiles T=%d against single sweeps: %s\n", FX, g.FY, depth,
                same ? "bit for bit" : "DIFFERENT");
    if (!same)
      return 1;
  }
  return 0;
}

template <int FX>
int time(long nx, long ny, long nz, int steps, int rounds, long bx, long by, int depth, long bz) {
  if (nx % FX || ny % (16 / FX)) {
    std::fprintf(stderr, "folded: NX %ld must be a multiple of %d and NY %ld of %d\n", nx, FX, ny,
                 16 / FX);
    return 2;
  }
  Folded<FX> a(nx, ny, nz, 0), b(nx, ny, nz, 1), c(nx, ny, nz, 2), vel(nx, ny, nz, 3);
  fill(a, a.data, 1, -1, 1), fill(a, b.data, 2, -1, 1), fill(a, c.data, 4, -1, 1);
  fill(a, vel.data, 3, 0.5f, 1);
  Shifts<FX> sh;
  float *prev = a.data, *u = b.data, *next = c.data;
  std::vector<double> perStep;
  step(a, next, u, prev, vel.data, 1e-3f, bx, by, sh); // warm
  if (depth > 1)
    steps = (steps + depth - 1) / depth * depth;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    if (depth > 1) {
      for (int s = 0; s < steps; s += depth) {
        float *levels[3] = {prev, u, next};
        stepsTiled(a, levels, vel.data, 1e-3f, depth, by, bz, sh);
        prev = levels[depth % 3], u = levels[(depth + 1) % 3], next = levels[(depth + 2) % 3];
      }
    } else {
      for (int s = 0; s < steps; ++s) {
        step(a, next, u, prev, vel.data, 1e-3f, bx, by, sh);
        float *oldPrev = prev;
        prev = u, u = next, next = oldPrev; // rotate time levels
      }
    }
    perStep.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                      steps);
  }
  std::sort(perStep.begin(), perStep.end());
  double med = perStep[perStep.size() / 2];
  std::printf(
      "fold %dx%d %ldx%ldx%ld bx=%ld by=%ld T=%d bz=%ld threads=%d: %.6g s a step (min %.6g), "
      "%.3f GPts/s\n",
      FX, 16 / FX, nx, ny, nz, bx, by, depth, bz, omp_get_max_threads(), med, perStep.front(),
      nx * ny * nz / med / 1e9);
  return 0;
}

// Every field's planes overlapping one plane of one vector row: the same instructions with the
// operands in L1, the rate of the core alone (as the bench harness's `incore`).
template <int FX> int incore(long nx, int repeats) {
  Folded<FX> u(nx, 16 / FX, 1, 0), prev(nx, 16 / FX, 1, 1), vel(nx, 16 / FX, 1, 2),
      next(nx, 16 / FX, 1, 3);
  fill(u, u.data, 1, -1, 1), fill(u, prev.data, 2, -1, 1), fill(u, vel.data, 3, 0.5f, 1);
  Folded<FX> &g = next;
  g.planeStride = 0; // every z neighbour is the centre's plane
  Shifts<FX> sh;
  std::vector<double> rates;
  const int inner = 2000;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < inner; ++i)
      stepBox(g, next.data, u.data, prev.data, vel.data, 1e-3f, g.xvBegin(), g.xvEnd(), g.yvBegin(),
              g.yvBegin() + 1, kRadius, kRadius + 1, sh);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rates.push_back(double(nx) * 16 / FX * inner / s / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  std::printf("fold %dx%d incore x=%ld: %.3f GPts/s a thread (median of %d)\n", FX, 16 / FX, nx,
              rates[rates.size() / 2], repeats);
  return 0;
}

template <int FX> int command(int argc, char **argv) {
  const std::string what = argv[1];
  if (what == "check")
    return check<FX>();
  if (what == "time" && argc >= 7)
    return time<FX>(std::atol(argv[2]), std::atol(argv[3]), std::atol(argv[4]), std::atoi(argv[5]),
                    std::atoi(argv[6]), argc > 7 ? std::atol(argv[7]) : 0,
                    argc > 8 ? std::atol(argv[8]) : 0, argc > 9 ? std::atoi(argv[9]) : 1,
                    argc > 10 ? std::atol(argv[10]) : 16);
  if (what == "incore" && argc >= 4)
    return incore<FX>(std::atol(argv[2]), std::atoi(argv[3]));
  std::fprintf(
      stderr,
      "usage: [FOLD_X=4|8|16] folded check | time NX NY NZ STEPS ROUNDS [BX [BY [DEPTH BZ]]]"
      " | incore NX REPEATS\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  if (!__builtin_cpu_supports("avx512f")) {
    std::fprintf(stderr, "folded: skipped: this CPU has no AVX-512 F\n");
    return 77;
  }
  const char *fold = std::getenv("FOLD_X");
  const int fx = fold ? std::atoi(fold) : 4;
  if (argc < 2)
    return command<4>(1, argv);
  if (fx == 4)
    return command<4>(argc, argv);
  if (fx == 8)
    return command<8>(argc, argv);
  if (fx == 16)
    return command<16>(argc, argv);
  std::fprintf(stderr, "folded: FOLD_X=%s is not 4, 8 or 16\n", fold);
  return 2;
}
