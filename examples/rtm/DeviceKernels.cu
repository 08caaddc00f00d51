//===- DeviceKernels.cu - The imaging example's small kernels on the device =//
#include "DeviceKernels.h"

#include <set>
#include <stdexcept>
#include <string>

namespace rtm::device {

namespace {

constexpr int kThreads = 256;

unsigned blocksFor(long long count) { return unsigned((count + kThreads - 1) / kThreads); }

__global__ void __launch_bounds__(kThreads)
    addAtKernel(float *origin, const std::ptrdiff_t *offsets, const float *values, int count) {
  const int r = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (r < count)
    origin[offsets[r]] += values[r];
}

__global__ void __launch_bounds__(kThreads)
    gatherAtKernel(const float *origin, const std::ptrdiff_t *offsets, float *out, int count) {
  const int r = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (r < count)
    out[r] = origin[offsets[r]];
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

} // namespace

DevicePoints::DevicePoints(const std::vector<std::array<int, 3>> &points,
                           const rt::GridShape &shape) {
  const rt::GridLayout layout = rt::GridLayout::of<float>(shape);
  std::vector<std::ptrdiff_t> offsets;
  std::set<std::ptrdiff_t> seen;
  for (const auto &p : points) {
    if (p[0] < 0 || p[0] >= shape.nx || p[1] < 0 || p[1] >= shape.ny || p[2] < 0 ||
        p[2] >= shape.nz)
      throw std::invalid_argument("the point " + pointText(p) +
                                  " lies outside the grid's interior");
    const std::ptrdiff_t offset = p[0] + p[1] * layout.line + p[2] * layout.plane;
    if (!seen.insert(offset).second)
      throw std::invalid_argument("the point " + pointText(p) +
                                  " is given twice: device injection needs distinct points");
    offsets.push_back(offset);
  }
  offsets_ = stencilc::cuda::DeviceBuffer<std::ptrdiff_t>(offsets.size());
  if (!offsets.empty())
    offsets_.copyFromHost(offsets.data(), offsets.size());
}

void addAt(rt::FieldView<float> field, const std::ptrdiff_t *offsets, const float *values,
           int count, cudaStream_t stream) {
  if (count <= 0)
    return;
  STENCILC_LAUNCH(addAtKernel, dim3(blocksFor(count)), dim3(kThreads), 0, stream)
  (field.origin, offsets, values, count);
  checkLaunch();
}

void gatherAt(rt::FieldView<const float> field, const std::ptrdiff_t *offsets, float *out,
              int count, cudaStream_t stream) {
  if (count <= 0)
    return;
  STENCILC_LAUNCH(gatherAtKernel, dim3(blocksFor(count)), dim3(kThreads), 0, stream)
  (field.origin, offsets, out, count);
  checkLaunch();
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
