// Loop bodies `lift` reads beyond one assignment (../body-forms.test): each
// function shows one form, small enough to read the stencil it becomes.
#include <cstddef>
#include <utility>
#include <vector>

constexpr int R = 2;

// A floating-point temporary, substituted where it is read.
void temporary(float *out, const float *in, int nx, int ny) {
#pragma stencil temporary
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i) {
      const float lap = in[j * nx + i - 1] + in[j * nx + i + 1] - 2.0f * in[j * nx + i];
      out[j * nx + i] = in[j * nx + i] + 0.25f * lap;
    }
}

// An inner loop over the radius with a constant trip count, unrolled; the
// coefficient array's elements become scalars.
void radius(float *out, const float *in, const float *coeff, int nx, int ny) {
#pragma stencil radius
  for (int j = R; j < ny - R; ++j)
    for (int i = R; i < nx - R; ++i) {
      const int pos = j * nx + i;
      float value = coeff[0] * in[pos];
      for (int r = 1; r <= R; ++r)
        value += coeff[r] * (in[pos - r] + in[pos + r] + in[pos - r * nx] + in[pos + r * nx]);
      out[pos] = value;
    }
}

// `+=` into the output: the old value is a time level the output overwrites.
void accumulate(double *u, const double *f, double dt, int nx, int ny) {
#pragma stencil accumulate
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      u[j * nx + i] += dt * (f[j * nx + i + 1] - f[j * nx + i - 1]);
}

// Several outputs in one nest; the second reads what the first wrote at the
// point (substituted), and the first is scaled afterwards in place.
void outputs(float *a, float *b, const float *in, const float *damp, int nx, int ny) {
#pragma stencil outputs
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i) {
      const int p = j * nx + i;
      a[p] = in[p - 1] + in[p + 1];
      b[p] = 0.5f * a[p] + in[p];
      a[p] *= damp[p];
    }
}

// A nest writing `=`, then nests accumulating `+=` over the same box with
// their own OpenMP pragmas: one stencil.
void split(float *out, const float *in, int nx, int ny) {
#pragma stencil split
#pragma omp parallel for
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      out[j * nx + i] = in[j * nx + i - 1] + in[j * nx + i + 1];
#pragma omp parallel for
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      out[j * nx + i] += in[(j - 1) * nx + i] + in[(j + 1) * nx + i];
}

// OpenMP on every loop, size_t counters, bounds written as `nx - R`.
void openmp(float *out, const float *in, std::size_t nx, std::size_t ny, std::size_t nz) {
#pragma stencil openmp
#pragma omp parallel for collapse(2)
  for (std::size_t k = R; k < nz - R; ++k)
    for (std::size_t j = R; j < ny - R; ++j)
#pragma omp simd
      for (std::size_t i = R; i < nx - R; ++i)
        out[(k * ny + j) * nx + i] =
            in[(k * ny + j) * nx + i + 2] + in[((k + 2) * ny + j) * nx + i];
}

// Time levels chosen by `t % 2` in an array of pointers, written in place.
void levels(float *p[2], const float *c2, int t, long nx, long ny) {
#pragma stencil levels
  for (long j = 1; j < ny - 1; ++j)
    for (long i = 1; i < nx - 1; ++i)
      p[(t + 1) % 2][j * nx + i] =
          2.0f * p[t % 2][j * nx + i] - p[(t + 1) % 2][j * nx + i] +
          c2[j * nx + i] *
              (p[t % 2][j * nx + i - 1] + p[t % 2][j * nx + i + 1] - 2.0f * p[t % 2][j * nx + i]);
}

// Arrays that are members: of an object (`m.vel`), and of the class whose
// method holds the loops (`p`, `this->q`).
struct Model {
  float *vel;
  float *damp;
};

class Solver {
public:
  void step(const Model &m, int nx, int ny) {
#pragma stencil members
    for (int j = 1; j < ny - 1; ++j)
      for (int i = 1; i < nx - 1; ++i)
        p[j * nx + i] = m.damp[j * nx + i] * (this->q[j * nx + i - 1] + q[j * nx + i + 1]) +
                        m.vel[j * nx + i] * q[j * nx + i];
  }

private:
  float *p, *q;
};
