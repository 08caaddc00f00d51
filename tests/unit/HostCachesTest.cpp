//===- HostCachesTest.cpp - Cache sizes read the way Linux describes them --===//
#include "analysis/HostCaches.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

using namespace stencilc::analysis;

namespace {

/// A fake /sys/devices/system/cpu/cpu0 with the given caches (level, type, size).
std::string fakeCpu(const std::string &name,
                    const std::vector<std::tuple<int, std::string, std::string>> &caches) {
  const auto root = std::filesystem::temp_directory_path() / ("stencilc-hostcaches-" + name);
  std::filesystem::remove_all(root);
  for (size_t i = 0; i < caches.size(); ++i) {
    const auto dir = root / "cache" / ("index" + std::to_string(i));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "level") << std::get<0>(caches[i]) << "\n";
    std::ofstream(dir / "type") << std::get<1>(caches[i]) << "\n";
    std::ofstream(dir / "size") << std::get<2>(caches[i]) << "\n";
  }
  return root.string();
}

TEST(HostCaches, ReadsDataAndUnifiedCachesPerLevel) {
  // A 2-core AMD EPYC as Linux shows it: L1d and L1i, a unified L2 and L3.
  const std::string cpu = fakeCpu("epyc", {{1, "Data", "32K"},
                                           {1, "Instruction", "32K"},
                                           {2, "Unified", "1024K"},
                                           {3, "Unified", "32768K"}});
  const HostCaches c = readHostCaches(cpu);
  EXPECT_EQ(c.l1d, 32 << 10);
  EXPECT_EQ(c.l2, 1 << 20);
  EXPECT_EQ(c.l3, 32 << 20);
  EXPECT_EQ(c.lastLevel(), 32 << 20);
  EXPECT_EQ(c.source, cpu + "/cache");
}

TEST(HostCaches, LastLevelIsTheDeepestPresent) {
  const std::string cpu = fakeCpu("no-l3", {{1, "Data", "48K"}, {2, "Unified", "2M"}});
  const HostCaches c = readHostCaches(cpu);
  EXPECT_EQ(c.l3, 0);
  EXPECT_EQ(c.lastLevel(), 2 << 20);
}

} // namespace
