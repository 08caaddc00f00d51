// Unmarked loop nests for `stencilc lift --all` (../all.test): every 2D/3D
// nest whose body is one assignment is a candidate; those that do not lift
// get a warning, and loops of other shapes are left alone.
constexpr int NX = 24, NY = 20, NZ = 16;

void smooth(float *out, const float *in, const float *weight, float scale) {
  for (int k = 1; k < NZ - 1; ++k)
    for (int j = 1; j < NY - 1; ++j)
      for (int i = 1; i < NX - 1; ++i)
        out[i + NX * (j + NY * k)] =
            scale * weight[i + NX * (j + NY * k)] *
            (in[i - 1 + NX * (j + NY * k)] + in[i + 1 + NX * (j + NY * k)] +
             in[i + NX * (j - 1 + NY * k)] + in[i + NX * (j + 1 + NY * k)] +
             in[i + NX * (j + NY * (k - 1))] + in[i + NX * (j + NY * (k + 1))]);
}

void fill(float (*grid)[NX]) {
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i)
      grid[j][i] = float(i * j); // depends on the position: not a stencil
}

float total(const float *in) {
  float sum = 0;
  for (int i = 0; i < NX; ++i) // one loop: not a candidate
    sum += in[i];
  return sum;
}
