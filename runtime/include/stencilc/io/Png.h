//===- Png.h - Wavefield slices and seismograms as colour-mapped PNG -------===//
//
// So that a user can look at a wavefront without numpy: a 2D array of values
// (a slice of a wavefield, or a seismogram: time down, receivers across) is
// mapped through a colour map and written with libpng. Wavefields are signed
// and centred on zero, so the default map is diverging (blue for negative,
// white for zero, red for positive) over a symmetric range [-clip, clip];
// sequential data (a velocity model) uses a dark-to-bright map over [lo, hi].
//
// Link the `stencilc_png` library (runtime/CMakeLists.txt) to use these.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stencilc::rt {

enum class ColourMap {
  Diverging,  ///< blue - white - red, for signed data around zero
  Sequential, ///< dark blue - green - yellow, for positive data such as velocities
};

struct Rgb {
  uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb &) const = default;
};

/// The colour of `t` in [0, 1] (clamped) under `map`.
Rgb colourOf(double t, ColourMap map);

/// A row-major image of values, row 0 at the top.
struct Image2D {
  int width = 0, height = 0;
  std::vector<float> values; ///< width * height, row by row

  float &at(int x, int y) { return values[std::size_t(y) * width + x]; }
  float at(int x, int y) const { return values[std::size_t(y) * width + x]; }
};

/// Writes `rgb` (width * height * 3 bytes, rows top to bottom) as an 8-bit
/// RGB PNG. Throws std::runtime_error if the file cannot be written.
void writePngRgb(const std::string &path, int width, int height, const std::vector<uint8_t> &rgb);

/// Maps values in [lo, hi] (clamped; NaN shows black) through `map` and
/// writes the image, each value as a `scale` x `scale` block of pixels.
void writePng(const std::string &path, const Image2D &image, double lo, double hi, ColourMap map,
              int scale = 1);

/// The largest |value| of the image, or `floor` if that is larger: the clip
/// of a diverging image that shows the whole range.
double maxAbs(const Image2D &image, double floor = 1e-30);

/// The vertical slice y = j of a 3D grid's interior: x across, z down
/// (depth increases downwards, as in a seismic section).
template <typename T> Image2D sliceXZ(const Grid<T> &grid, int j) {
  Image2D image{grid.nx(), grid.nz(), {}};
  image.values.resize(std::size_t(grid.nx()) * grid.nz());
  for (int k = 0; k < grid.nz(); ++k)
    for (int i = 0; i < grid.nx(); ++i)
      image.at(i, k) = float(grid(i, j, k));
  return image;
}

/// The horizontal slice z = k of a grid's interior: x across, y down.
template <typename T> Image2D sliceXY(const Grid<T> &grid, int k) {
  Image2D image{grid.nx(), grid.ny(), {}};
  image.values.resize(std::size_t(grid.nx()) * grid.ny());
  for (int j = 0; j < grid.ny(); ++j)
    for (int i = 0; i < grid.nx(); ++i)
      image.at(i, j) = float(grid(i, j, k));
  return image;
}

} // namespace stencilc::rt
