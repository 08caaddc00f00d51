//===- ImageCheck.cpp - Are the reflectors where the image puts them? ------===//
//
//   rtm-image-check DIR [--min-ratio R] [--tolerance CELLS] [--window CELLS]
//                       [--from PERCENT] [--to PERCENT]
//
// Reads DIR/model.npy and DIR/image.npy (float32, shape (nz, ny, nx), as rtm
// writes them: docs/SEISMIC.md §Conventions) and, in every nx/20-th column of the middle y
// plane with x from --from to --to percent of nx (default 30 to 70, where
// shots on both sides illuminate the reflectors), finds the reflectors in the
// model (a step up of more than 100 m/s between two cells) and, around each,
// the image's peak: rtm images a step up in velocity as a positive peak, so
// the peak is the largest value within --window cells (default 4) of the
// reflector. It must lie within --tolerance cells (default 2) of the
// reflector and stand --min-ratio times (default 3) above the background
// there: the RMS of the image from window + 1 to 12 cells above and below.
// Prints a line per column and each interface's range of ratios; exit status
// 1 if any reflector of any column fails, 2 on bad input.
//
//===----------------------------------------------------------------------===//
#include "stencilc/io/Npy.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rt = stencilc::rt;

namespace {

/// The background around a reflector: the image from window + 1 to this
/// many cells above and below it.
constexpr int kBackgroundReach = 12;

struct Options {
  double minRatio = 3;
  int tolerance = 2, window = 4;
  int fromPercent = 30, toPercent = 70; // the columns checked, of nx
};

struct Volume {
  int nx = 0, ny = 0, nz = 0;
  std::vector<float> values; // x fastest
  float at(int i, int j, int k) const { return values[(size_t(k) * ny + j) * nx + i]; }
};

/// A C-order float32 volume of shape (nz, ny, nx).
Volume readVolume(const std::string &path) {
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
  Volume v{int(header.shape[2]), int(header.shape[1]), int(header.shape[0]), {}};
  v.values.resize(size_t(v.nx) * v.ny * v.nz);
  if (!is.read(reinterpret_cast<char *>(v.values.data()),
               std::streamsize(v.values.size() * sizeof(float))))
    throw std::runtime_error(path + ": data truncated");
  return v;
}

/// The smallest and largest peak-to-background ratio of one interface (the
/// n-th from the top) over the checked columns.
struct Range {
  double low = INFINITY, high = -INFINITY;
  int columns = 0;
};

int check(const std::string &dir, const Options &o) {
  const Volume model = readVolume(dir + "/model.npy");
  const Volume image = readVolume(dir + "/image.npy");
  if (model.nx != image.nx || model.ny != image.ny || model.nz != image.nz)
    throw std::runtime_error("model.npy and image.npy differ in shape");
  const int j = model.ny / 2;
  int failures = 0, columns = 0;
  std::vector<Range> ranges;
  const int first = o.fromPercent * model.nx / 100, last = o.toPercent * model.nx / 100;
  for (int i = first; i < last; i += std::max(1, model.nx / 20)) {
    ++columns;
    // Reflectors: the first cell below each step up of more than 100 m/s.
    std::vector<int> centres;
    for (int k = 1; k < model.nz; ++k)
      if (model.at(i, j, k) - model.at(i, j, k - 1) > 100)
        centres.push_back(k);
    if (centres.empty())
      throw std::runtime_error("model.npy has no reflector in column " + std::to_string(i));
    ranges.resize(std::max(ranges.size(), centres.size()));
    std::string line;
    bool ok = true;
    for (size_t r = 0; r < centres.size(); ++r) {
      const int c = centres[r];
      int peak = c;
      for (int k = std::max(0, c - o.window); k <= std::min(model.nz - 1, c + o.window); ++k)
        if (image.at(i, j, k) > image.at(i, j, peak))
          peak = k;
      double sum = 0;
      int count = 0;
      for (int k = std::max(0, c - kBackgroundReach);
           k <= std::min(model.nz - 1, c + kBackgroundReach); ++k)
        if (std::abs(k - c) > o.window) {
          sum += double(image.at(i, j, k)) * image.at(i, j, k);
          ++count;
        }
      const double ratio = image.at(i, j, peak) / std::sqrt(sum / std::max(1, count));
      const bool good = std::abs(peak - c) <= o.tolerance && ratio >= o.minRatio;
      ok &= good;
      ranges[r].low = std::min(ranges[r].low, ratio);
      ranges[r].high = std::max(ranges[r].high, ratio);
      ++ranges[r].columns;
      char text[96];
      std::snprintf(text, sizeof(text), " reflector z=%d: peak z=%d, %.2fx background%s", c, peak,
                    ratio, good ? "" : " (FAILED)");
      line += text;
    }
    std::printf("column x=%d:%s %s\n", i, line.c_str(), ok ? "ok" : "FAILED");
    failures += !ok;
  }
  for (size_t r = 0; r < ranges.size(); ++r)
    std::printf("interface %zu from the top: %.2f-%.2fx background over %d columns\n", r + 1,
                ranges[r].low, ranges[r].high, ranges[r].columns);
  std::printf("%d of %d columns (x from %d%% to %d%% of nx) have every reflector's peak within %d "
              "cells of it and %.1fx above the background\n",
              columns - failures, columns, o.fromPercent, o.toPercent, o.tolerance, o.minRatio);
  return failures ? 1 : 0;
}

/// The whole of `text` as a number, or an error naming the option and the text.
double number(const std::string &option, const char *text) {
  char *end = nullptr;
  errno = 0;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || errno != 0 || !std::isfinite(value))
    throw std::invalid_argument(option + ": expected a number, got '" + text + "'");
  return value;
}

int count(const std::string &option, const char *text, int low, int high) {
  const double value = number(option, text);
  if (value != std::floor(value) || value < low || value > high)
    throw std::invalid_argument(option + ": expected a whole number from " + std::to_string(low) +
                                " to " + std::to_string(high) + ", got '" + text + "'");
  return int(value);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2 || argc % 2 != 0) {
    std::fprintf(stderr, "usage: rtm-image-check DIR [--min-ratio R] [--tolerance CELLS] "
                         "[--window CELLS] [--from PERCENT] [--to PERCENT]\n");
    return 2;
  }
  try {
    Options o;
    for (int a = 2; a + 1 < argc; a += 2) {
      const std::string option = argv[a];
      const char *value = argv[a + 1];
      if (option == "--min-ratio")
        o.minRatio = number(option, value);
      else if (option == "--tolerance")
        o.tolerance = count(option, value, 0, 1000);
      else if (option == "--window")
        o.window = count(option, value, 0, kBackgroundReach - 1);
      else if (option == "--from")
        o.fromPercent = count(option, value, 0, 100);
      else if (option == "--to")
        o.toPercent = count(option, value, 0, 100);
      else
        throw std::invalid_argument("unknown option " + option);
    }
    if (o.fromPercent >= o.toPercent)
      throw std::invalid_argument("--from " + std::to_string(o.fromPercent) +
                                  " must be less than --to " + std::to_string(o.toPercent));
    return check(argv[1], o);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "rtm-image-check: error: %s\n", e.what());
    return 2;
  }
}
