//===- DeviceTriad.h - The GPU's memory bandwidth, measured ---------------===//
#pragma once

#include <cstddef>

namespace stencilc::bench {

/// Best bandwidth in GB/s (1e9 bytes per second) of the triad a[i] = b[i] +
/// s * c[i] on three device arrays of `elements` doubles over `trials` runs,
/// counting 24 bytes per element as STREAM does.
double measureDeviceTriadBandwidth(std::size_t elements = std::size_t(1) << 27, int trials = 20);

} // namespace stencilc::bench
