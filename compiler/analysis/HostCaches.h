//===- HostCaches.h - The data caches of the machine stencilc runs on -----===//
//
// Benchmarks must measure memory where memory is the bound, so they size
// their grids from the last-level cache of the machine they run on (never a
// figure baked in for one machine). The reader is the runtime's
// (stencilc/abi/HostCaches.h), so that a kernel and the compiler that
// explains its tiles read the same figures.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/abi/HostCaches.h"

#include <string>

namespace stencilc::analysis {

using rt::HostCaches;
using rt::readHostCaches;

/// The CPU model from /proc/cpuinfo ("model name"), or "this machine".
std::string readCpuModel(const std::string &cpuinfo = "/proc/cpuinfo");

} // namespace stencilc::analysis
