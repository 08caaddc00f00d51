//===- Check.h - Every CUDA runtime call checked, with a clear error -------===//
//
// STENCILC_CUDA_CHECK (Cuda.h) turns a failed runtime call into an exception
// that says where the call was, what it was and what CUDA said, so a failed
// allocation or launch is never silently ignored. Works the same with the
// real runtime and with the emulator's (HostApi.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stdexcept>
#include <string>

namespace stencilc::cuda {

/// A CUDA runtime call returned an error.
class CudaError : public std::runtime_error {
public:
  CudaError(cudaError_t code, const std::string &what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

private:
  cudaError_t code_;
};

/// Throws CudaError for anything but cudaSuccess; `call` is the source text.
inline void check(cudaError_t code, const char *call, const char *file, int line) {
  if (code == cudaSuccess)
    return;
  throw CudaError(code, std::string(file) + ":" + std::to_string(line) + ": CUDA error " +
                            cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ") in " +
                            call);
}

} // namespace stencilc::cuda
