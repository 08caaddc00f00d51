//===- DeviceRuntimeTest.cu - Host API, device grids, snapshots ------------===//
//
// The host side of the CUDA runtime, run on the emulator's host API: checked
// calls and their messages, the copy checks of emulated device memory,
// device grids with the host grid's layout, and the snapshot writer.
//
//===----------------------------------------------------------------------===//
#include "stencilc/cuda/Cuda.h"
#include "stencilc/cuda/DeviceGrid.h"
#include "stencilc/cuda/DeviceKernelData.h"
#include "stencilc/cuda/DeviceSnapshotWriter.h"
#include "stencilc/cuda/Streams.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace cuda = stencilc::cuda;
namespace rt = stencilc::rt;

namespace {

TEST(HostApi, CheckedCallSaysWhereWhatAndWhy) {
  try {
    STENCILC_CUDA_CHECK(cudaSetDevice(3));
    FAIL() << "no error";
  } catch (const cuda::CudaError &e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), cudaErrorInvalidDevice);
    EXPECT_NE(what.find("DeviceRuntimeTest.cu:"), std::string::npos) << what;
    EXPECT_NE(what.find("cudaErrorInvalidDevice (invalid device ordinal) in cudaSetDevice(3)"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDevice);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(HostApi, NewDeviceMemoryIsNaNAndAligned) {
  double *p = nullptr;
  STENCILC_CUDA_CHECK(cudaMalloc(&p, 10 * sizeof(double)));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 256, 0u);
  double host[10];
  STENCILC_CUDA_CHECK(cudaMemcpy(host, p, sizeof(host), cudaMemcpyDeviceToHost));
  for (double v : host)
    EXPECT_TRUE(std::isnan(v));
  STENCILC_CUDA_CHECK(cudaFree(p));
}

TEST(HostApi, CopiesAreCheckedAgainstTheAllocations) {
  float *device = nullptr;
  float host[16] = {};
  STENCILC_CUDA_CHECK(cudaMalloc(&device, 8 * sizeof(float)));
  EXPECT_EQ(cudaMemcpy(device, host, 8 * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(device, host, 9 * sizeof(float), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue)
      << "past the end of the allocation";
  EXPECT_EQ(cudaMemcpy(device + 4, host, 5 * sizeof(float), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue)
      << "from inside the allocation past its end";
  EXPECT_EQ(cudaMemcpy(host, device, 8 * sizeof(float), cudaMemcpyHostToDevice),
            cudaErrorInvalidValue)
      << "swapped pointers";
  EXPECT_EQ(cudaMemcpy(host + 8, device, 8 * sizeof(float), cudaMemcpyDefault), cudaSuccess)
      << "direction from the pointers";
  EXPECT_EQ(cudaMemset(device, 0, 9 * sizeof(float)), cudaErrorInvalidValue);
  EXPECT_EQ(cudaFree(host), cudaErrorInvalidValue) << "not device memory";
  STENCILC_CUDA_CHECK(cudaFree(device));
  EXPECT_EQ(cudaFree(device), cudaErrorInvalidValue) << "freed twice";
  cudaGetLastError();
}

TEST(HostApi, EventsTimeAndStreamsAreChecked) {
  cuda::Stream stream;
  cuda::Event start(cuda::Event::Timing::On), end(cuda::Event::Timing::On);
  start.record(stream);
  end.record(stream);
  EXPECT_GE(end.millisecondsSince(start), 0.0f);
  cuda::Event untimed;
  untimed.record(stream);
  EXPECT_THROW(untimed.millisecondsSince(start), cuda::CudaError);
  cudaStream_t bogus = reinterpret_cast<cudaStream_t>(&start);
  EXPECT_EQ(cudaStreamSynchronize(bogus), cudaErrorInvalidResourceHandle);
  cudaGetLastError();
}

/// Every DeviceGrid must have the layout rt::Grid chooses.
template <typename T> void expectSameLayout(const rt::GridShape &shape) {
  rt::Grid<T> host(shape);
  cuda::DeviceGrid<T> device(shape);
  EXPECT_EQ(device.lineStride(), host.lineStride());
  EXPECT_EQ(device.planeStride(), host.planeStride());
  EXPECT_EQ(device.storageElements(), host.storageElements());
}

TEST(DeviceGrid, HasTheLayoutOfTheHostGrid) {
  for (int halo : {0, 1, 2, 4, 7, 16, 17})
    for (int nx : {1, 5, 16, 37, 64}) {
      expectSameLayout<float>({3, nx, 3, 2, halo});
      expectSameLayout<double>({3, nx, 4, 3, halo});
      expectSameLayout<std::uint8_t>({3, nx, 2, 2, halo});
      expectSameLayout<std::uint16_t>({2, nx, 9, 1, halo});
      expectSameLayout<std::int32_t>({2, nx, 3, 1, halo});
    }
}

TEST(DeviceGrid, RoundTripsTheWholeStorageWithOneCopy) {
  rt::Grid<double> host = rt::Grid<double>::make3d(13, 7, 5, 4);
  host.fillRandom(9, -1.0, 1.0);
  cuda::DeviceGrid<double> device(host);
  EXPECT_EQ(device.lineStride(), host.lineStride());
  EXPECT_EQ(device.planeStride(), host.planeStride());
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(device.origin()) % rt::kCacheLineBytes, 0u);
  rt::Grid<double> back = device.toHost();
  host.forEachPointWithHalo([&](int i, int j, int k) { ASSERT_EQ(back(i, j, k), host(i, j, k)); });

  rt::Grid<double> other = rt::Grid<double>::make3d(13, 7, 6, 4);
  EXPECT_THROW(device.download(other), std::invalid_argument);
  EXPECT_THROW(cuda::DeviceGrid<float>(rt::GridShape{2, 4, 4, 3, 1}), std::invalid_argument);
}

TEST(DeviceTable, KeepsTheStorageOrder) {
  rt::CoefficientTable<float> host(5, 11, rt::TableLayout::ColumnMajor);
  host.fillRandom(3, -1.0f, 1.0f);
  cuda::DeviceTable<float> device(host);
  rt::TableView<float> v = device.view();
  EXPECT_EQ(v.rowStride, host.rowStride());
  EXPECT_EQ(v.colStride, host.colStride());
  std::vector<float> back(host.size());
  STENCILC_CUDA_CHECK(
      cudaMemcpy(back.data(), v.data, back.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 11; ++c)
      EXPECT_EQ(back[r * v.rowStride + c * v.colStride], host(r, c));
}

/// One "time step": every interior point of `field` grows by one.
__global__ void addOne(rt::FieldView<float> field, int nx, int ny) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y);
  const int z = int(blockIdx.z);
  if (x < nx && y < ny)
    field.origin[x + y * field.line + z * field.plane] += 1.0f;
}

std::filesystem::path freshDirectory(const std::string &name) {
  auto dir = std::filesystem::temp_directory_path() /
             (name + "-" + std::to_string(std::rand()) + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(DeviceSnapshotWriter, WritesEachSnapshotAsItWasWhenQueued) {
  const rt::GridShape shape{3, 9, 5, 4, 2};
  rt::Grid<float> host(shape);
  host.fill(0.0f);
  cuda::DeviceGrid<float> field(host);
  cuda::Stream compute;
  const auto dir = freshDirectory("stencilc-snapshots");
  const int steps = 7;
  {
    cuda::DeviceSnapshotWriter<float> writer(shape, 2);
    for (int step = 1; step <= steps; ++step) {
      writer.protect(field, compute); // the step overwrites what a snapshot may still read
      STENCILC_LAUNCH(addOne, dim3(1, 5, 4), 32, 0, compute)(field.view(), 9, 5);
      STENCILC_CUDA_CHECK(cudaGetLastError());
      writer.write(field, (dir / ("step" + std::to_string(step) + ".npy")).string(), compute);
    }
    writer.finish();
    EXPECT_EQ(writer.written(), steps);
    // Seven files take some time; the worker's clock counts it (rtm reports it against the waits).
    EXPECT_GT(writer.writeSeconds(), 0.0);
  }
  for (int step = 1; step <= steps; ++step) {
    rt::Grid<float> snap =
        rt::readNpy<float>((dir / ("step" + std::to_string(step) + ".npy")).string(), 0);
    snap.forEachInteriorPoint(
        [&](int i, int j, int k) { ASSERT_EQ(snap(i, j, k), float(step)) << "step " << step; });
  }
  std::filesystem::remove_all(dir);
}

TEST(DeviceSnapshotWriter, ReportsAFailedWrite) {
  const rt::GridShape shape{2, 8, 8, 1, 1};
  cuda::DeviceGrid<float> field(shape);
  cuda::Stream compute;
  cuda::DeviceSnapshotWriter<float> writer(shape, 1);
  writer.write(field, "/nonexistent-directory/snap.npy", compute);
  EXPECT_THROW(writer.finish(), std::runtime_error);
  EXPECT_EQ(writer.written(), 0);
}

/// out = u * c at every interior point of a 3D grid.
__global__ void multiply(rt::FieldView<const float> u, rt::FieldView<const float> c,
                         rt::FieldView<float> out, rt::Extent e) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x), y = int(blockIdx.y),
            z = int(blockIdx.z);
  if (x >= e.nx)
    return;
  const std::ptrdiff_t at = x + y * u.line + z * u.plane;
  out.origin[at] = u.origin[at] * c.origin[at];
}

template <typename T> rt::FieldView<T> fieldView(const rt::ErasedField &f) {
  return {static_cast<T *>(f.origin), f.line, f.plane};
}

TEST(DeviceKernelData, MirrorsTheHostDataAndItsRotation) {
  static const rt::KernelInfo info{"multiply",
                                   "multiply",
                                   "float",
                                   3,
                                   1,
                                   1,
                                   {{"u", "time", "float", -1, -1, {}, 0},
                                    {"c", "in", "float", -1, -1, {}, 0},
                                    {"out", "out", "float", -1, /*advances=*/0, {}, 0}},
                                   {},
                                   {},
                                   nullptr,
                                   {},
                                   {}};
  const rt::GridShape shape{3, 11, 3, 2, 1};
  rt::KernelData host(info, shape, 4, /*inPlace=*/false);
  host.field<float>(0).fillRandom(1, -1.0f, 1.0f);
  host.field<float>(1).fillRandom(2, 0.5f, 1.5f);
  host.field<float>(2).poison();
  cuda::DeviceKernelData device(host);

  rt::ErasedArgs a = device.args();
  STENCILC_LAUNCH(multiply, dim3(1, 3, 2), 32, 0, nullptr)
  (fieldView<const float>(a.fields[0]), fieldView<const float>(a.fields[1]),
   fieldView<float>(a.fields[2]), a.extent);
  device.download(2);
  const rt::Grid<float> &u = host.field<float>(0), &c = host.field<float>(1);
  host.field<float>(2).forEachInteriorPoint([&](int i, int j, int k) {
    ASSERT_EQ(host.field<float>(2)(i, j, k), u(i, j, k) * c(i, j, k));
  });

  // After a step the output becomes the current level: the device follows.
  const void *outputStorage = a.fields[2].origin;
  host.rotate();
  device.remap();
  EXPECT_EQ(device.args().fields[0].origin, outputStorage);
  EXPECT_EQ(device.args().fields[2].origin, a.fields[0].origin);
}

} // namespace
