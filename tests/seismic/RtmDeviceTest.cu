//===- RtmDeviceTest.cu - The imaging example's small device kernels -------===//
//
// examples/rtm/DeviceKernels.h through the CUDA emulator: injection and
// recording touch exactly their points, and off the grid (stations sharing
// points) give the CPU path's sums bit for bit; the interior copy leaves the
// halo alone, and the imaging condition gives the CPU path's sums bit for bit
// (Migration.cpp's ShotRun::image), on odd grids whose rows leave partial
// blocks. Points outside the grid are refused.
//
//===----------------------------------------------------------------------===//
#include "DeviceKernels.h"

#include "stencilc/Random.h"
#include "stencilc/cuda/DeviceGrid.h"
#include "stencilc/cuda/Streams.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace cu = stencilc::cuda;
namespace rt = stencilc::rt;
using rtm::device::DeviceStations;

namespace {

/// Every element of the storage, halo and padding included, equal bit for bit.
bool sameBits(const rt::Grid<float> &a, const rt::Grid<float> &b) {
  return std::memcmp(a.storage(), b.storage(), a.storageElements() * sizeof(float)) == 0;
}

rt::Grid<float> randomGrid(const rt::GridShape &shape, uint64_t seed) {
  rt::Grid<float> g(shape);
  g.fillRandom(seed, -1.0f, 1.0f);
  return g;
}

std::string refusal(const std::vector<std::array<int, 3>> &points, const rt::GridShape &shape) {
  try {
    DeviceStations::atPoints(points, shape);
  } catch (const std::invalid_argument &e) {
    return e.what();
  }
  return "accepted";
}

TEST(RtmDeviceStations, RefusesPointsOutsideTheInterior) {
  const rt::GridShape shape{3, 13, 7, 5, 4};
  EXPECT_EQ(refusal({{0, 0, 0}, {12, 6, 5}}, shape),
            "the point (12, 6, 5) of station 1 lies outside the grid's interior");
  EXPECT_EQ(refusal({{-1, 0, 0}}, shape),
            "the point (-1, 0, 0) of station 0 lies outside the grid's interior");
  EXPECT_EQ(refusal({{0, 0, 0}, {12, 6, 4}, {0, 0, 0}}, shape), "accepted");
}

template <typename T> cu::DeviceBuffer<T> onDevice(const std::vector<T> &values) {
  cu::DeviceBuffer<T> buffer(values.size());
  buffer.copyFromHost(values.data(), values.size());
  return buffer;
}

TEST(RtmDeviceStations, InjectAndRecordAtGridPointsTouchTheirPointsOnly) {
  const rt::GridShape shape{3, 13, 7, 5, 4};
  const rt::Grid<float> host = randomGrid(shape, 1);
  cu::DeviceGrid<float> field(host);
  cu::Stream stream;
  const std::vector<std::array<int, 3>> points = {{0, 0, 0}, {12, 6, 4}, {5, 3, 2}};
  const std::vector<float> values = {1.5f, -2.0f, 0.25f};
  const DeviceStations at = DeviceStations::atPoints(points, shape);
  EXPECT_EQ(at.size(), 3);
  EXPECT_EQ(at.points(), 3);
  const cu::DeviceBuffer<float> deviceValues = onDevice(values);
  at.inject(field.view(), deviceValues.data(), stream);
  cu::DeviceBuffer<float> recorded(values.size());
  at.record(rt::readOnlyView(field.view()), recorded.data(), stream);
  stream.synchronize();
  rt::Grid<float> expected = host.clone();
  for (size_t r = 0; r < points.size(); ++r)
    expected(points[r][0], points[r][1], points[r][2]) += values[r];
  EXPECT_TRUE(sameBits(field.toHost(), expected));
  std::vector<float> read(values.size());
  recorded.copyToHost(read.data(), read.size());
  for (size_t r = 0; r < points.size(); ++r)
    EXPECT_EQ(read[r], expected(points[r][0], points[r][1], points[r][2])) << "point " << r;
}

/// Stations of eight weighted corners each, neighbours sharing four (a
/// receiver line at half-cell spacing) and one station of no points: the
/// device's sums are the CPU path's bit for bit (Migration.cpp `at` with
/// wave::Propagator::step, OffGrid.h `record`), with float and double values.
TEST(RtmDeviceStations, SharedPointsTakeEveryStationsTermInTheCpuPathsOrder) {
  const rt::GridShape shape{3, 11, 6, 5, 4};
  rt::RandomEngine random(7);
  std::vector<std::vector<rtm::device::WeightedPoint>> stations;
  for (int r = 0; r < 12; ++r) {
    stations.emplace_back();
    for (int dk = 0; dk < 2; ++dk)
      for (int dj = 0; dj < 2; ++dj)
        for (int di = 0; di < 2; ++di)
          stations.back().push_back({{r / 2 + di, 2 + dj, 1 + dk}, rt::uniformReal(random, -1, 1)});
  }
  stations.emplace_back(); // a receiver with no point in this part of the grid
  const DeviceStations at(stations, shape);
  EXPECT_EQ(at.size(), 13);
  EXPECT_EQ(at.points(), 7 * 2 * 2);
  std::vector<float> floats;
  std::vector<double> doubles;
  for (size_t r = 0; r < stations.size(); ++r) {
    floats.push_back(float(rt::uniformReal(random, -3, 3)));
    doubles.push_back(rt::uniformReal(random, -3, 3) * 1e-3);
  }
  const rt::Grid<float> host = randomGrid(shape, 8);
  cu::DeviceGrid<float> field(host);
  cu::Stream stream;
  const cu::DeviceBuffer<float> deviceFloats = onDevice(floats);
  const cu::DeviceBuffer<double> deviceDoubles = onDevice(doubles);
  cu::DeviceBuffer<float> recorded(stations.size());
  at.inject(field.view(), deviceFloats.data(), stream);
  at.inject(field.view(), deviceDoubles.data(), stream);
  at.record(rt::readOnlyView(field.view()), recorded.data(), stream);
  stream.synchronize();
  // The CPU path: each station's terms in turn, each added to the float field.
  rt::Grid<float> expected = host.clone();
  for (size_t r = 0; r < stations.size(); ++r)
    for (const auto &w : stations[r])
      expected(w.point[0], w.point[1], w.point[2]) += float(w.weight * double(floats[r]));
  for (size_t r = 0; r < stations.size(); ++r)
    for (const auto &w : stations[r])
      expected(w.point[0], w.point[1], w.point[2]) += float(w.weight * doubles[r]);
  EXPECT_TRUE(sameBits(field.toHost(), expected));
  std::vector<float> read(stations.size());
  recorded.copyToHost(read.data(), read.size());
  for (size_t r = 0; r < stations.size(); ++r) {
    double sum = 0;
    for (const auto &w : stations[r])
      sum += w.weight * double(expected(w.point[0], w.point[1], w.point[2]));
    EXPECT_EQ(read[r], float(sum)) << "station " << r;
  }
  EXPECT_EQ(read.back(), 0.0f);
}

TEST(RtmDeviceKernels, CopyInteriorLeavesTheHaloAlone) {
  const rt::GridShape shape{3, 300, 3, 2, 4}; // two blocks per row, the second partial
  const rt::Grid<float> host = randomGrid(shape, 2);
  const cu::DeviceGrid<float> from(host);
  cu::DeviceGrid<float> to(shape);
  to.poison();
  cu::Stream stream;
  rtm::device::copyInterior(from.view(), to.view(), {shape.nx, shape.ny, shape.nz}, stream);
  stream.synchronize();
  const rt::Grid<float> copy = to.toHost();
  copy.forEachPointWithHalo([&](int i, int j, int k) {
    const bool inside = i >= 0 && i < shape.nx && j >= 0 && j < shape.ny && k >= 0 && k < shape.nz;
    if (inside)
      ASSERT_EQ(copy(i, j, k), host(i, j, k)) << i << " " << j << " " << k;
    else
      ASSERT_TRUE(std::isnan(copy(i, j, k))) << "halo point " << i << " " << j << " " << k;
  });
}

TEST(RtmDeviceKernels, ImageIsTheCpuPathsSumsBitForBit) {
  for (const rt::GridShape &shape :
       {rt::GridShape{3, 37, 5, 3, 4}, rt::GridShape{3, 300, 2, 2, 4}}) {
    const rt::Grid<float> u = randomGrid(shape, 3), lambda = randomGrid(shape, 4),
                          later = randomGrid(shape, 5);
    const size_t points = size_t(shape.nx) * shape.ny * shape.nz;
    std::vector<double> cross(points), illumination(points);
    rt::RandomEngine random(6);
    for (size_t n = 0; n < points; ++n) {
      cross[n] = rt::uniformReal(random, -1, 1);
      illumination[n] = rt::uniformReal(random, 0, 1);
    }
    cu::DeviceBuffer<double> deviceCross(points), deviceIllumination(points);
    deviceCross.copyFromHost(cross.data(), points);
    deviceIllumination.copyFromHost(illumination.data(), points);
    const cu::DeviceGrid<float> du(u), dl(lambda), dlater(later);
    cu::Stream stream;
    rtm::device::image(du.view(), dl.view(), dlater.view(), {shape.nx, shape.ny, shape.nz},
                       deviceCross.data(), deviceIllumination.data(), stream);
    stream.synchronize();
    // Migration.cpp's ShotRun::image, x fastest.
    size_t n = 0;
    for (int k = 0; k < shape.nz; ++k)
      for (int j = 0; j < shape.ny; ++j)
        for (int i = 0; i < shape.nx; ++i, ++n) {
          const double dLambda = double(lambda(i, j, k)) - double(later(i, j, k));
          cross[n] += double(u(i, j, k)) * dLambda;
          illumination[n] += double(u(i, j, k)) * double(u(i, j, k));
        }
    std::vector<double> gotCross(points), gotIllumination(points);
    deviceCross.copyToHost(gotCross.data(), points);
    deviceIllumination.copyToHost(gotIllumination.data(), points);
    EXPECT_EQ(std::memcmp(gotCross.data(), cross.data(), points * sizeof(double)), 0);
    EXPECT_EQ(std::memcmp(gotIllumination.data(), illumination.data(), points * sizeof(double)), 0);
  }
}

} // namespace
