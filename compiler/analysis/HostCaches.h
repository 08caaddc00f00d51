//===- HostCaches.h - The data caches of the machine stencilc runs on -----===//
//
// Benchmarks must measure memory where memory is the bound, so they size
// their grids from the last-level cache of the machine they run on (never a
// figure baked in for one machine): Linux describes each cache of CPU 0
// under /sys/devices/system/cpu/cpu0/cache/index*/ (level, type, size).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <string>

namespace stencilc::analysis {

struct HostCaches {
  long long l1d = 0, l2 = 0, l3 = 0; ///< bytes per cache instance; 0 where absent
  std::string source;                ///< where the figures came from
  /// The last level present (L3, else L2, else L1d); 0 when none was found.
  long long lastLevel() const { return l3 ? l3 : l2 ? l2 : l1d; }
};

/// The caches of CPU 0, from sysfs (or sysconf where sysfs has none).
HostCaches readHostCaches(const std::string &sysfsCpu = "/sys/devices/system/cpu/cpu0");

/// The CPU model from /proc/cpuinfo ("model name"), or "this machine".
std::string readCpuModel(const std::string &cpuinfo = "/proc/cpuinfo");

} // namespace stencilc::analysis
