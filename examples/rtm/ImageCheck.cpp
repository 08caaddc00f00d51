//===- ImageCheck.cpp - Are the reflectors where the image puts them? ------===//
//
//   rtm-image-check DIR [--min-ratio R] [--tolerance CELLS] [--window CELLS]
//
// Reads DIR/model.npy and DIR/image.npy (float32, shape (nx, ny, nz), depth
// last, as rtm writes them) and, in the columns of the middle y plane across
// x from 30% to 70% (exclusive) of nx, where shots on both sides illuminate
// the reflectors, finds the reflectors in the model (a step up of more
// than 100 m/s between two cells) and, around each, the image's peak: rtm
// images a step up in velocity as a positive peak, so the peak is the largest
// value within --window cells (default 4) of the reflector. It must lie within
// --tolerance cells (default 2) of the reflector and stand --min-ratio times
// (default 1.5) above the background there: the RMS of the image from
// window + 1 to 12 cells above and below. Prints a line per column; exit
// status 1 if any reflector of any column fails.
//
//===----------------------------------------------------------------------===//
#include "stencilc/Npy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = stencilc::rt;

namespace {

struct Volume {
  int nx = 0, ny = 0, nz = 0;
  std::vector<float> values; // z fastest
  float at(int i, int j, int k) const { return values[(size_t(i) * ny + j) * nz + k]; }
};

Volume readDepthLast(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  if (!is)
    throw std::runtime_error(path + ": cannot open");
  rt::NpyHeader header;
  try {
    header = rt::parseNpyHeader(is);
  } catch (const std::runtime_error &e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (header.descr != "<f4" || header.fortranOrder || header.shape.size() != 3)
    throw std::runtime_error(path + ": expected a C-order float32 array of rank 3");
  Volume v{int(header.shape[0]), int(header.shape[1]), int(header.shape[2]), {}};
  v.values.resize(size_t(v.nx) * v.ny * v.nz);
  if (!is.read(reinterpret_cast<char *>(v.values.data()),
               std::streamsize(v.values.size() * sizeof(float))))
    throw std::runtime_error(path + ": data truncated");
  return v;
}

int check(const std::string &dir, double minRatio, int tolerance, int window) {
  const Volume model = readDepthLast(dir + "/model.npy");
  const Volume image = readDepthLast(dir + "/image.npy");
  if (model.nx != image.nx || model.ny != image.ny || model.nz != image.nz)
    throw std::runtime_error("model.npy and image.npy differ in shape");
  const int j = model.ny / 2;
  int failures = 0, columns = 0;
  for (int i = 3 * model.nx / 10; i < 7 * model.nx / 10; i += std::max(1, model.nx / 20)) {
    ++columns;
    // Reflectors: the first cell below each step up of more than 100 m/s.
    std::vector<int> centres;
    for (int k = 1; k < model.nz; ++k)
      if (model.at(i, j, k) - model.at(i, j, k - 1) > 100)
        centres.push_back(k);
    if (centres.empty())
      throw std::runtime_error("model.npy has no reflector in column " + std::to_string(i));
    std::string line;
    bool ok = true;
    for (int c : centres) {
      int peak = c;
      for (int k = std::max(0, c - window); k <= std::min(model.nz - 1, c + window); ++k)
        if (image.at(i, j, k) > image.at(i, j, peak))
          peak = k;
      double sum = 0;
      int count = 0;
      for (int k = std::max(0, c - 12); k <= std::min(model.nz - 1, c + 12); ++k)
        if (std::abs(k - c) > window) {
          sum += double(image.at(i, j, k)) * image.at(i, j, k);
          ++count;
        }
      const double ratio = image.at(i, j, peak) / std::sqrt(sum / std::max(1, count));
      const bool good = std::abs(peak - c) <= tolerance && ratio >= minRatio;
      ok &= good;
      char text[96];
      std::snprintf(text, sizeof(text), " reflector z=%d: peak z=%d, %.2fx background%s", c, peak,
                    ratio, good ? "" : " (FAILED)");
      line += text;
    }
    std::printf("column x=%d:%s %s\n", i, line.c_str(), ok ? "ok" : "FAILED");
    failures += !ok;
  }
  std::printf("%d of %d columns have every reflector's peak within %d cells of it and %.1fx above "
              "the background\n",
              columns - failures, columns, tolerance, minRatio);
  return failures ? 1 : 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: rtm-image-check DIR [--min-ratio R] [--tolerance CELLS] [--window CELLS]\n");
    return 2;
  }
  double minRatio = 1.5;
  int tolerance = 2, window = 4;
  for (int a = 2; a + 1 < argc; a += 2) {
    const std::string option = argv[a];
    if (option == "--min-ratio")
      minRatio = std::atof(argv[a + 1]);
    else if (option == "--tolerance")
      tolerance = std::atoi(argv[a + 1]);
    else if (option == "--window")
      window = std::atoi(argv[a + 1]);
    else {
      std::fprintf(stderr, "rtm-image-check: unknown option %s\n", option.c_str());
      return 2;
    }
  }
  try {
    return check(argv[1], minRatio, tolerance, window);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rtm-image-check: error: %s\n", e.what());
    return 2;
  }
}
