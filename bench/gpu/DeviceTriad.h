//===- DeviceTriad.h - The GPU's memory bandwidth, measured ---------------===//
#pragma once

#include <cstddef>

namespace stencilc::bench {

/// Best bandwidth in GB/s (1e9 bytes per second) of the triad a[i] = b[i] +
/// s * c[i] on three device arrays of `elements` doubles over `trials` runs,
/// counting 24 bytes per element as STREAM does.
double measureDeviceTriadBandwidth(std::size_t elements = std::size_t(1) << 27, int trials = 20);

/// Best bandwidth in GB/s of a[i] = b[i] + c[i] + d[i] on four device arrays of `elements`
/// floats (16 bytes per element): the mix of reads and writes of a stencil step that reads
/// three fields and writes one (acoustic_iso8's u_prev, u, v and u_next), without neighbours.
/// Against the triad it says what that mix alone costs (docs/PERFORMANCE.md §CUDA variants on a
/// GPU).
double measureDeviceStream3r1wBandwidth(std::size_t elements = std::size_t(1) << 28,
                                        int trials = 20);

} // namespace stencilc::bench
