//===- DeviceKernels.cu - The imaging example's small kernels on the device =//
#include "DeviceKernels.h"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace rtm::device {

namespace {

constexpr int kThreads = 256;

unsigned blocksFor(long long count) { return unsigned((count + kThreads - 1) / kThreads); }

/// Thread r: station r's Σ weight·u over its points, in their order.
__global__ void __launch_bounds__(kThreads)
    recordKernel(const float *origin, const int *stationBegin, const std::ptrdiff_t *offset,
                 const double *weight, float *out, int stations) {
  const int r = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (r >= stations)
    return;
  double sum = 0;
  for (int e = stationBegin[r]; e < stationBegin[r + 1]; ++e)
    sum += weight[e] * double(origin[offset[e]]);
  out[r] = float(sum);
}

/// Thread p: every station's term at distinct point p, in station order.
template <typename Value>
__global__ void __launch_bounds__(kThreads)
    injectKernel(float *origin, const std::ptrdiff_t *pointOffset, const int *pointBegin,
                 const int *termStation, const double *termWeight, const Value *values,
                 int points) {
  const int p = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (p >= points)
    return;
  float u = origin[pointOffset[p]];
  for (int t = pointBegin[p]; t < pointBegin[p + 1]; ++t)
    u += float(termWeight[t] * double(values[termStation[t]]));
  origin[pointOffset[p]] = u;
}

/// One thread per point of a row; blockIdx.y and z walk the rows and planes.
__global__ void __launch_bounds__(kThreads)
    copyInteriorKernel(const float *from, std::ptrdiff_t fromLine, std::ptrdiff_t fromPlane,
                       float *to, std::ptrdiff_t toLine, std::ptrdiff_t toPlane, int nx) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  const std::ptrdiff_t j = blockIdx.y, k = blockIdx.z;
  if (i < nx)
    to[j * toLine + k * toPlane + i] = from[j * fromLine + k * fromPlane + i];
}

__global__ void __launch_bounds__(kThreads)
    imageKernel(const float *u, const float *lambda, const float *later, std::ptrdiff_t line,
                std::ptrdiff_t plane, int nx, int ny, double *cross, double *illumination) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  const std::ptrdiff_t j = blockIdx.y, k = blockIdx.z;
  if (i >= nx)
    return;
  const std::ptrdiff_t at = j * line + k * plane + i;
  const std::size_t n =
      (std::size_t(k) * std::size_t(ny) + std::size_t(j)) * std::size_t(nx) + std::size_t(i);
  const double dLambda = double(lambda[at]) - double(later[at]);
  const double value = double(u[at]);
  cross[n] += value * dLambda;
  illumination[n] += value * value;
}

void checkLaunch() { STENCILC_CUDA_CHECK(cudaGetLastError()); }

std::string pointText(const std::array<int, 3> &p) {
  return "(" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + ", " + std::to_string(p[2]) +
         ")";
}

template <typename T> stencilc::cuda::DeviceBuffer<T> onDevice(const std::vector<T> &values) {
  stencilc::cuda::DeviceBuffer<T> buffer(values.size());
  if (!values.empty())
    buffer.copyFromHost(values.data(), values.size());
  return buffer;
}

template <typename Value>
void injectTerms(rt::FieldView<float> field, const std::ptrdiff_t *pointOffset,
                 const int *pointBegin, const int *termStation, const double *termWeight,
                 const Value *values, int points, cudaStream_t stream) {
  if (points <= 0)
    return;
  STENCILC_LAUNCH(injectKernel<Value>, dim3(blocksFor(points)), dim3(kThreads), 0, stream)
  (field.origin, pointOffset, pointBegin, termStation, termWeight, values, points);
  checkLaunch();
}

} // namespace

DeviceStations::DeviceStations(const std::vector<std::vector<WeightedPoint>> &stations,
                               const rt::GridShape &shape)
    : stations_(int(stations.size())) {
  const rt::GridLayout layout = rt::GridLayout::of<float>(shape);
  std::vector<int> stationBegin{0};
  std::vector<std::ptrdiff_t> entryOffset;
  std::vector<double> entryWeight;
  // Per distinct point, in order of first appearance: its terms (station, weight).
  std::map<std::ptrdiff_t, size_t> pointIndex;
  std::vector<std::ptrdiff_t> pointOffset;
  std::vector<std::vector<std::pair<int, double>>> terms;
  for (size_t r = 0; r < stations.size(); ++r) {
    for (const WeightedPoint &w : stations[r]) {
      const std::array<int, 3> &p = w.point;
      if (p[0] < 0 || p[0] >= shape.nx || p[1] < 0 || p[1] >= shape.ny || p[2] < 0 ||
          p[2] >= shape.nz)
        throw std::invalid_argument("the point " + pointText(p) + " of station " +
                                    std::to_string(r) + " lies outside the grid's interior");
      const std::ptrdiff_t offset = p[0] + p[1] * layout.line + p[2] * layout.plane;
      entryOffset.push_back(offset);
      entryWeight.push_back(w.weight);
      const auto [at, added] = pointIndex.emplace(offset, pointOffset.size());
      if (added) {
        pointOffset.push_back(offset);
        terms.emplace_back();
      }
      terms[at->second].emplace_back(int(r), w.weight);
    }
    stationBegin.push_back(int(entryOffset.size()));
  }
  std::vector<int> pointBegin{0}, termStation;
  std::vector<double> termWeight;
  for (const auto &atPoint : terms) {
    for (const auto &[station, weight] : atPoint) {
      termStation.push_back(station);
      termWeight.push_back(weight);
    }
    pointBegin.push_back(int(termStation.size()));
  }
  stationBegin_ = onDevice(stationBegin);
  entryOffset_ = onDevice(entryOffset);
  entryWeight_ = onDevice(entryWeight);
  pointOffset_ = onDevice(pointOffset);
  pointBegin_ = onDevice(pointBegin);
  termStation_ = onDevice(termStation);
  termWeight_ = onDevice(termWeight);
}

DeviceStations DeviceStations::atPoints(const std::vector<std::array<int, 3>> &points,
                                        const rt::GridShape &shape) {
  std::vector<std::vector<WeightedPoint>> stations;
  for (const auto &p : points)
    stations.push_back({{p, 1.0}});
  return DeviceStations(stations, shape);
}

void DeviceStations::record(rt::FieldView<const float> field, float *out,
                            cudaStream_t stream) const {
  if (stations_ <= 0)
    return;
  STENCILC_LAUNCH(recordKernel, dim3(blocksFor(stations_)), dim3(kThreads), 0, stream)
  (field.origin, stationBegin_.data(), entryOffset_.data(), entryWeight_.data(), out, stations_);
  checkLaunch();
}

void DeviceStations::inject(rt::FieldView<float> field, const float *values,
                            cudaStream_t stream) const {
  injectTerms(field, pointOffset_.data(), pointBegin_.data(), termStation_.data(),
              termWeight_.data(), values, points(), stream);
}

void DeviceStations::inject(rt::FieldView<float> field, const double *values,
                            cudaStream_t stream) const {
  injectTerms(field, pointOffset_.data(), pointBegin_.data(), termStation_.data(),
              termWeight_.data(), values, points(), stream);
}

void copyInterior(rt::FieldView<const float> from, rt::FieldView<float> to, rt::Extent extent,
                  cudaStream_t stream) {
  const dim3 grid(blocksFor(extent.nx), unsigned(extent.ny), unsigned(extent.nz));
  STENCILC_LAUNCH(copyInteriorKernel, grid, dim3(kThreads), 0, stream)
  (from.origin, from.line, from.plane, to.origin, to.line, to.plane, extent.nx);
  checkLaunch();
}

void image(rt::FieldView<const float> u, rt::FieldView<const float> lambda,
           rt::FieldView<const float> later, rt::Extent extent, double *cross, double *illumination,
           cudaStream_t stream) {
  // The three wavefields share one layout (grids of one shape).
  if (u.line != lambda.line || u.plane != lambda.plane || later.line != lambda.line ||
      later.plane != lambda.plane)
    throw std::invalid_argument("device::image: wavefields of different layouts");
  const dim3 grid(blocksFor(extent.nx), unsigned(extent.ny), unsigned(extent.nz));
  STENCILC_LAUNCH(imageKernel, grid, dim3(kThreads), 0, stream)
  (u.origin, lambda.origin, later.origin, lambda.line, lambda.plane, extent.nx, extent.ny, cross,
   illumination);
  checkLaunch();
}

} // namespace rtm::device
