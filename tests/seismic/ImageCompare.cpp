//===- ImageCompare.cpp - Two images, equal to within a relative tolerance ===//
//
//   image-compare A.npy B.npy LIMIT
//
// Reads two float32 .npy arrays of one shape and passes when
// max |a − b| ≤ LIMIT · max |a| (and neither holds a NaN); prints both
// maxima, their ratio and how many points are equal bit for bit. The test of
// the imaging example's CUDA path against its CPU path (tests/seismic).
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/Npy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

namespace rt = stencilc::rt;

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: image-compare A.npy B.npy LIMIT\n");
    return 2;
  }
  char *end = nullptr;
  const double limit = std::strtod(argv[3], &end);
  if (end == argv[3] || *end != '\0' || !(limit >= 0)) {
    std::fprintf(stderr, "image-compare: error: LIMIT '%s' is not a number >= 0\n", argv[3]);
    return 2;
  }
  try {
    const rt::Grid<float> a = rt::readNpy<float>(argv[1], 0);
    const rt::Grid<float> b = rt::readNpy<float>(argv[2], 0);
    if (!(a.shape() == b.shape())) {
      std::fprintf(stderr, "image-compare: error: %s and %s differ in shape\n", argv[1], argv[2]);
      return 1;
    }
    double largest = 0, difference = 0;
    long long same = 0, points = 0, nans = 0;
    a.forEachInteriorPoint([&](int i, int j, int k) {
      const float x = a(i, j, k), y = b(i, j, k);
      ++points;
      if (std::isnan(x) || std::isnan(y)) {
        ++nans;
        return;
      }
      same += std::memcmp(&x, &y, sizeof(float)) == 0;
      largest = std::max(largest, std::abs(double(x)));
      difference = std::max(difference, std::abs(double(x) - double(y)));
    });
    const double ratio = largest > 0 ? difference / largest : (difference > 0 ? INFINITY : 0);
    std::printf("max |a - b| = %.3e, max |a| = %.3e, ratio %.3e (limit %.1e); %lld of %lld points "
                "bit-identical\n",
                difference, largest, ratio, limit, same, points);
    if (nans) {
      std::fprintf(stderr, "image-compare: error: %lld points are NaN\n", nans);
      return 1;
    }
    if (ratio > limit) {
      std::fprintf(stderr,
                   "image-compare: error: the images differ by %.3e of the largest value, "
                   "more than %.1e\n",
                   ratio, limit);
      return 1;
    }
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "image-compare: error: %s\n", e.what());
    return 1;
  }
}
