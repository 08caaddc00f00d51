//===- Png.cpp - Wavefield slices and seismograms as colour-mapped PNG -----===//
#include "stencilc/io/Png.h"

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace stencilc::rt {
namespace {

struct Anchor {
  double t;
  double r, g, b;
};

// Piecewise-linear maps through a few anchor colours (components in [0, 1]).
// Diverging: dark blue, blue, white at zero, red, dark red (like matplotlib's
// "seismic"). Sequential: a coarse approximation of "viridis".
constexpr std::array<Anchor, 5> kDiverging{{{0.00, 0.0, 0.0, 0.3},
                                            {0.25, 0.0, 0.0, 1.0},
                                            {0.50, 1.0, 1.0, 1.0},
                                            {0.75, 1.0, 0.0, 0.0},
                                            {1.00, 0.5, 0.0, 0.0}}};
constexpr std::array<Anchor, 5> kSequential{{{0.00, 0.267, 0.005, 0.329},
                                             {0.25, 0.229, 0.322, 0.546},
                                             {0.50, 0.128, 0.567, 0.551},
                                             {0.75, 0.369, 0.789, 0.383},
                                             {1.00, 0.993, 0.906, 0.144}}};

uint8_t toByte(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255)); }

/// Writes the image through libpng, false if libpng reported an error. libpng
/// reports errors by longjmp back to the setjmp here, so this function holds
/// no object with a destructor that the jump could skip.
bool encode(png_structp png, png_infop info, std::FILE *file, int width, int height,
            const uint8_t *rgb) {
  if (setjmp(png_jmpbuf(png)))
    return false;
  png_init_io(png, file);
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < height; ++y)
    png_write_row(png, rgb + std::size_t(y) * width * 3);
  png_write_end(png, nullptr);
  return true;
}

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};

} // namespace

Rgb colourOf(double t, ColourMap map) {
  const auto &anchors = map == ColourMap::Diverging ? kDiverging : kSequential;
  t = std::clamp(t, 0.0, 1.0);
  size_t hi = 1;
  while (hi + 1 < anchors.size() && t > anchors[hi].t)
    ++hi;
  const Anchor &a = anchors[hi - 1], &b = anchors[hi];
  const double w = (t - a.t) / (b.t - a.t);
  return {toByte(a.r + w * (b.r - a.r)), toByte(a.g + w * (b.g - a.g)),
          toByte(a.b + w * (b.b - a.b))};
}

void writePngRgb(const std::string &path, int width, int height, const std::vector<uint8_t> &rgb) {
  if (width < 1 || height < 1 || rgb.size() != std::size_t(width) * height * 3)
    throw std::invalid_argument(path + ": image size does not match its pixels");
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "wb"));
  if (!file)
    throw std::runtime_error(path + ": cannot open for writing");
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  const bool written = info && encode(png, info, file.get(), width, height, rgb.data());
  png_destroy_write_struct(&png, &info);
  if (!written)
    throw std::runtime_error(path + ": libpng could not write the image");
  if (std::fflush(file.get()) != 0)
    throw std::runtime_error(path + ": write failed");
}

void writePng(const std::string &path, const Image2D &image, double lo, double hi, ColourMap map,
              int scale) {
  if (image.values.size() != std::size_t(image.width) * image.height || scale < 1)
    throw std::invalid_argument(path + ": malformed image");
  const int width = image.width * scale, height = image.height * scale;
  const double range = hi > lo ? hi - lo : 1.0;
  std::vector<uint8_t> rgb(std::size_t(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const float v = image.at(x / scale, y / scale);
      const Rgb c = std::isnan(v) ? Rgb{} : colourOf((v - lo) / range, map);
      uint8_t *pixel = &rgb[(std::size_t(y) * width + x) * 3];
      pixel[0] = c.r;
      pixel[1] = c.g;
      pixel[2] = c.b;
    }
  writePngRgb(path, width, height, rgb);
}

double maxAbs(const Image2D &image, double floor) {
  double m = floor;
  for (float v : image.values)
    if (std::isfinite(v))
      m = std::max(m, double(std::fabs(v)));
  return m;
}

} // namespace stencilc::rt
