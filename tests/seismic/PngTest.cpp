//===- PngTest.cpp - Colour maps and PNG output of the runtime -------------===//
//
// The diverging map is white at zero and blue/red at the ends, the
// sequential map runs dark to bright, and a written image reads back (through
// libpng's own reader) with the colours of its values, scaled as asked.
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/Png.h"

#include <png.h>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

using namespace stencilc::rt;

namespace {

TEST(PngTest, DivergingMapIsWhiteAtZeroBlueBelowRedAbove) {
  EXPECT_EQ(colourOf(0.5, ColourMap::Diverging), (Rgb{255, 255, 255}));
  Rgb low = colourOf(0.25, ColourMap::Diverging), high = colourOf(0.75, ColourMap::Diverging);
  EXPECT_EQ(low, (Rgb{0, 0, 255}));
  EXPECT_EQ(high, (Rgb{255, 0, 0}));
  EXPECT_EQ(colourOf(-3.0, ColourMap::Diverging), colourOf(0.0, ColourMap::Diverging)); // clamped
}

TEST(PngTest, SequentialMapGetsBrighter) {
  auto brightness = [](Rgb c) { return int(c.r) + c.g + c.b; };
  int previous = -1;
  for (double t : {0.0, 0.25, 0.5, 0.75, 1.0}) {
    int b = brightness(colourOf(t, ColourMap::Sequential));
    EXPECT_GT(b, previous) << "t = " << t;
    previous = b;
  }
}

TEST(PngTest, WrittenImageReadsBackWithItsColours) {
  Image2D image{3, 2, {-1.0f, 0.0f, 1.0f, 0.5f, std::numeric_limits<float>::quiet_NaN(), -0.5f}};
  auto path = std::filesystem::temp_directory_path() / "PngTest-image.png";
  writePng(path.string(), image, -1, 1, ColourMap::Diverging, 2);

  png_image read{};
  read.version = PNG_IMAGE_VERSION;
  ASSERT_TRUE(png_image_begin_read_from_file(&read, path.c_str())) << read.message;
  read.format = PNG_FORMAT_RGB;
  ASSERT_EQ(read.width, 6u);
  ASSERT_EQ(read.height, 4u);
  std::vector<uint8_t> pixels(PNG_IMAGE_SIZE(read));
  ASSERT_TRUE(png_image_finish_read(&read, nullptr, pixels.data(), 0, nullptr)) << read.message;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x) {
      const float v = image.at(x / 2, y / 2);
      const Rgb want = std::isnan(v) ? Rgb{} : colourOf((v + 1) / 2, ColourMap::Diverging);
      const uint8_t *p = &pixels[(y * 6 + x) * 3];
      EXPECT_EQ((Rgb{p[0], p[1], p[2]}), want) << x << "," << y;
    }
  std::filesystem::remove(path);
}

TEST(PngTest, UnwritablePathThrows) {
  Image2D image{1, 1, {0.0f}};
  EXPECT_THROW(writePng("/nonexistent-dir/x.png", image, -1, 1, ColourMap::Diverging),
               std::runtime_error);
}

TEST(PngTest, SlicesOfAGrid) {
  auto grid = Grid<float>::make3d(4, 3, 5, 1);
  grid.fillWith([](int i, int j, int k) { return 100 * k + 10 * j + i; });
  Image2D xz = sliceXZ(grid, 2);
  EXPECT_EQ(xz.width, 4);
  EXPECT_EQ(xz.height, 5);
  EXPECT_EQ(xz.at(3, 4), 423.0f);
  Image2D xy = sliceXY(grid, 1);
  EXPECT_EQ(xy.height, 3);
  EXPECT_EQ(xy.at(2, 1), 112.0f);
  EXPECT_EQ(maxAbs(xz), 423.0);
}

} // namespace
