// C++ names that are words of the DSL (../reserved-names.test): a scalar named
// `plan` (a statement keyword) and a field named `max` (a built-in function).
void smooth(float *out, const float *max, float plan, int nx, int ny) {
#pragma stencil reserved
  for (int j = 1; j < ny - 1; ++j)
    for (int i = 1; i < nx - 1; ++i)
      out[j * nx + i] = plan * (max[j * nx + i - 1] + max[j * nx + i + 1]);
}
