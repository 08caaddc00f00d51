//===- HostCaches.cpp -----------------------------------------------------===//
#include "analysis/HostCaches.h"

#include <fstream>

namespace stencilc::analysis {

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
