//===- WavefrontCheck.cpp - Is the wavefront where physics puts it? --------===//
//
//   wavefront-check SNAPSHOT.npy SOURCE_X SOURCE_Z EXPECTED_RADIUS TOLERANCE
//
// Reads a vertical snapshot slice written by the wave example (2D .npy, z
// down, x across) through a point source and finds the radius at which the
// ring-averaged wavefield peaks: a Ricker source fired at t0 puts the main
// lobe of its spherical wave at r = v (t − t0). Also checks that the PNG
// beside the .npy is a PNG. Exits 0 when the peak is within TOLERANCE points
// of EXPECTED_RADIUS, 1 otherwise, printing what it found.
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/Npy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

bool isPng(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8] = {};
  in.read(magic, 8);
  return in && std::string(magic, 8) == std::string("\x89PNG\r\n\x1a\n", 8);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s SNAPSHOT.npy SOURCE_X SOURCE_Z EXPECTED_RADIUS TOLERANCE\n",
                 argv[0]);
    return 2;
  }
  const std::string npy = argv[1];
  const int sx = std::atoi(argv[2]), sz = std::atoi(argv[3]);
  const double expected = std::atof(argv[4]), tolerance = std::atof(argv[5]);
  try {
    auto slice = stencilc::rt::readNpy<float>(npy, 0);
    // Mean value over rings one point wide around the source.
    const int maxRadius = int(std::hypot(slice.nx(), slice.ny())) + 1;
    std::vector<double> sum(maxRadius + 1, 0.0);
    std::vector<int> count(maxRadius + 1, 0);
    slice.forEachInteriorPoint([&](int x, int z, int) {
      const int r = int(std::lround(std::hypot(x - sx, z - sz)));
      sum[r] += slice(x, z);
      ++count[r];
    });
    // Skip the first points: the 1/r singularity at the source.
    int peak = -1;
    double best = 0;
    for (int r = 3; r <= maxRadius; ++r)
      if (count[r] > 0 && (peak < 0 || sum[r] / count[r] > best)) {
        peak = r;
        best = sum[r] / count[r];
      }
    const std::string png = npy.substr(0, npy.size() - 4) + ".png";
    std::printf("%s: ring-averaged peak at r = %d points (expected %.1f +- %.1f); %s %s\n",
                npy.c_str(), peak, expected, tolerance, png.c_str(),
                isPng(png) ? "is a PNG" : "is missing or not a PNG");
    return std::abs(peak - expected) <= tolerance && isPng(png) ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "wavefront-check: %s\n", e.what());
    return 1;
  }
}
