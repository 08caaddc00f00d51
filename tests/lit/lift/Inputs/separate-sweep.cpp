// A nest followed by one that accumulates into its output but reads what the
// first wrote at a neighbour (../separate-sweep.test): the second is a sweep
// of its own, so it is not joined and stays a C++ loop.
void smooth(float *a, float *b, const float *in, int nx, int ny) {
#pragma stencil first_sweep
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i) {
      a[j * nx + i] = in[j * nx + i - 1] + in[j * nx + i + 1];
      b[j * nx + i] = in[j * nx + i];
    }
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      b[j * nx + i] += a[j * nx + i + 1];
}
