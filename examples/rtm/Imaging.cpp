//===- Imaging.cpp - From the correlation sums to the image ---------------===//
#include "Imaging.h"

#include <algorithm>

namespace rtm {

rt::Grid<float> finishImage(const ImageSums &sums, int nx, int ny, int nz,
                            const ImageOptions &options) {
  const double largest = *std::max_element(sums.illumination.begin(), sums.illumination.end());
  const double floor = options.stabilisation * largest;
  // Normalised, in double, with a zero halo of one point for the Laplacian.
  rt::Grid<double> normalised = rt::Grid<double>::make3d(nx, ny, nz, 1);
  normalised.fill(0.0);
  size_t n = 0;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i, ++n)
        normalised(i, j, k) =
            options.normalise ? sums.cross[n] / (sums.illumination[n] + floor) : sums.cross[n];
  rt::Grid<float> image = rt::Grid<float>::make3d(nx, ny, nz, 1);
  image.fill(0.0f);
  image.forEachInteriorPoint([&](int i, int j, int k) {
    const double centre = normalised(i, j, k);
    const double sum = normalised(i - 1, j, k) + normalised(i + 1, j, k) + normalised(i, j - 1, k) +
                       normalised(i, j + 1, k) + normalised(i, j, k - 1) + normalised(i, j, k + 1);
    image(i, j, k) = float(options.laplacian ? 6 * centre - sum : centre); // −∇², unit spacing
  });
  return image;
}

} // namespace rtm
