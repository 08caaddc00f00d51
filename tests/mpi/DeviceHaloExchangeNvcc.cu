// Compiled by nvcc in ctest (mpi.cuda.nvcc): the device pack and unpack
// kernels of the distributed CUDA path, for sm_80 and sm_90, as on a GPU.
#include <stencilc/cuda/mpi/DeviceHaloExchange.h>

// Instantiates both element sizes' kernels and the exchange's virtual functions.
std::unique_ptr<stencilc::rt::mpi::HaloExchange>
makeDeviceExchange(const stencilc::rt::mpi::DomainSplit &d, const stencilc::rt::mpi::Reach &r,
                   int elementBytes) {
  return stencilc::cuda::mpi::DeviceHaloExchange::make(d, r, elementBytes, 0);
}
