//===- HostCaches.cpp -----------------------------------------------------===//
#include "analysis/HostCaches.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <unistd.h>

namespace stencilc::analysis {

namespace {

bool readLine(const std::string &path, std::string &line) {
  std::ifstream in(path);
  return in && std::getline(in, line) && !line.empty();
}

/// "32K", "1024K", "32M", "512" -> bytes; 0 when unreadable.
long long parseSize(const std::string &text) {
  size_t end = 0;
  long long value = 0;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    value = value * 10 + (text[end++] - '0');
  if (end == 0)
    return 0;
  const char unit = end < text.size() ? char(std::toupper(text[end])) : 0;
  return unit == 'K' ? value << 10 : unit == 'M' ? value << 20 : unit == 'G' ? value << 30 : value;
}

} // namespace

HostCaches readHostCaches(const std::string &sysfsCpu) {
  HostCaches caches;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = sysfsCpu + "/cache/index" + std::to_string(index) + "/";
    std::string level, type, size;
    if (!readLine(dir + "level", level))
      break;
    if (!readLine(dir + "type", type) || !readLine(dir + "size", size) || type == "Instruction")
      continue;
    const long long bytes = parseSize(size);
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

std::string readCpuModel(const std::string &cpuinfo) {
  std::ifstream in(cpuinfo);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon == std::string::npos)
        continue;
      const size_t begin = line.find_first_not_of(" \t", colon + 1);
      const size_t end = line.find_last_not_of(" \t\r");
      if (begin != std::string::npos)
        return line.substr(begin, end + 1 - begin);
    }
  return "this machine";
}

} // namespace stencilc::analysis
