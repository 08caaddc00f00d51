// Loop forms `lift` accepts beyond the legacy programs (../forms.test): weights
// in an array read at constant subscripts, a function of a per-point field,
// double precision, `<=` bounds, `i++`, a std::vector output and a 2D index
// variable.
#include <cmath>
#include <vector>

void diffuse(std::vector<double> &out, const double *in, const double *kappa, int nx, int ny) {
  const double w[3] = {-2.0, 1.0, 0.5};
#pragma stencil weighted
  for (int j = 2; j <= ny - 3; j++)
    for (int i = 2; i <= nx - 3; i++) {
      const int p = j * nx + i;
      out[p] = in[p] + std::sqrt(kappa[p]) * (w[0] * in[p] + w[1] * (in[p - 1] + in[p + 1]) +
                                              w[2] * (in[p - 2 * nx] + in[p + 2 * nx]));
    }
}
