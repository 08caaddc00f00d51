// names_legacy.cpp - A 3D diffusion step whose arrays and constants carry
// names that clash in generated code: DSL keywords (grid, sum, order),
// names of the runtime and the kernels' own locals (x, n, a, box, coefs, l,
// kW, extent, rt). `rewrite` and `gen` must spell each one the same way
// (backends/KernelNames.h), or the rewritten program does not compile.
//
// Usage: names_legacy OUT [N STEPS]  -- writes the final field, one value per line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

int main(int argc, char **argv) {
  const char *outPath = argc > 1 ? argv[1] : "names.out";
  const int n = argc > 2 ? std::atoi(argv[2]) : 20;
  const int steps = argc > 3 ? std::atoi(argv[3]) : 5;
  if (n < 3) {
    std::fprintf(stderr, "names_legacy: N must be at least 3\n");
    return 2;
  }
  const double l = 0.1, kW = 0.05, coefs = 0.02, extent = 1.0, rt = 0.5;
  std::vector<double> grid(size_t(n) * n * n), x(grid.size()), box(grid.size()), sum(grid.size()),
      a(grid.size()), order(grid.size());
  for (size_t q = 0; q < grid.size(); ++q) {
    grid[q] = std::sin(0.1 * double(q));
    box[q] = 1.0 + 0.5 * std::cos(0.3 * double(q));
    a[q] = 0.2 + 0.01 * double(q % 5);
    order[q] = 0.0;
  }
  for (int t = 0; t < steps; ++t) {
#pragma stencil names_legacy
    for (int k = 1; k < n - 1; ++k)
      for (int j = 1; j < n - 1; ++j)
        for (int i = 1; i < n - 1; ++i) {
          const int e = i + n * (j + n * k);
          const double lap = grid[e - 1] + grid[e + 1] + grid[e - n] + grid[e + n] +
                             grid[e - n * n] + grid[e + n * n] - 6.0 * grid[e];
          x[e] = extent * grid[e] + l * box[e] * lap + kW * coefs * a[e] * grid[e];
          sum[e] = rt * x[e];
          order[e] += sum[e];
        }
    std::swap(grid, x);
  }
  FILE *out = std::fopen(outPath, "w");
  if (!out)
    return 1;
  for (size_t q = 0; q < grid.size(); ++q)
    std::fprintf(out, "%.17g\n%.17g\n", grid[q], order[q]);
  std::fclose(out);
  return 0;
}
