//===- HostCaches.h - The data caches of the machine a program runs on ----===//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/): plain C++20, no other include of the runtime. Benchmarks
// size their grids from the last-level cache of the machine they run on, and
// the kernels size their tiles from its L2 (abi/LayerCondition.h): never a
// figure baked in for one machine. Linux describes each cache of CPU 0 under
// /sys/devices/system/cpu/cpu0/cache/index*/ (level, type, size).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <algorithm>
#include <cctype>
#include <fstream>
#include <string>
#include <unistd.h>

namespace stencilc::rt {

struct HostCaches {
  long long l1d = 0, l2 = 0, l3 = 0; ///< bytes per cache instance; 0 where absent
  std::string source;                ///< where the figures came from
  /// The last level present (L3, else L2, else L1d); 0 when none was found.
  long long lastLevel() const { return l3 ? l3 : l2 ? l2 : l1d; }
};

namespace host_caches_detail {

inline bool readLine(const std::string &path, std::string &line) {
  std::ifstream in(path);
  return in && std::getline(in, line) && !line.empty();
}

/// "32K", "1024K", "32M", "512" -> bytes; 0 when unreadable.
inline long long parseSize(const std::string &text) {
  size_t end = 0;
  long long value = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    value = value * 10 + (text[end++] - '0');
  if (end == 0)
    return 0;
  const char unit = end < text.size() ? char(std::toupper(text[end])) : 0;
  return unit == 'K' ? value << 10 : unit == 'M' ? value << 20 : unit == 'G' ? value << 30 : value;
}

} // namespace host_caches_detail

/// The caches of CPU 0, from sysfs (or sysconf where sysfs has none).
inline HostCaches readHostCaches(const std::string &sysfsCpu = "/sys/devices/system/cpu/cpu0") {
  HostCaches caches;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = sysfsCpu + "/cache/index" + std::to_string(index) + "/";
    std::string level, type, size;
    if (!host_caches_detail::readLine(dir + "level", level))
      break;
    if (!host_caches_detail::readLine(dir + "type", type) ||
        !host_caches_detail::readLine(dir + "size", size) || type == "Instruction")
      continue;
    const long long bytes = host_caches_detail::parseSize(size);
    if (level == "1")
      caches.l1d = bytes;
    else if (level == "2")
      caches.l2 = bytes;
    else if (level == "3")
      caches.l3 = bytes;
  }
  if (caches.lastLevel()) {
    caches.source = sysfsCpu + "/cache";
    return caches;
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  caches.l1d = std::max(0L, sysconf(_SC_LEVEL1_DCACHE_SIZE));
  caches.l2 = std::max(0L, sysconf(_SC_LEVEL2_CACHE_SIZE));
  caches.l3 = std::max(0L, sysconf(_SC_LEVEL3_CACHE_SIZE));
  if (caches.lastLevel())
    caches.source = "sysconf";
#endif
  return caches;
}

/// This machine's caches, read once per program.
inline const HostCaches &hostCaches() {
  static const HostCaches caches = readHostCaches();
  return caches;
}

} // namespace stencilc::rt
