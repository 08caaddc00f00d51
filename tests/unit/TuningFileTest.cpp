//===- TuningFileTest.cpp - Tuning files read, merged, written and matched --===//
#include "analysis/TuningFile.h"

#include "frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace stencilc;
using namespace stencilc::analysis;

namespace {

MachineKey machineA() { return {"AMD EPYC", 2, 32768, 1048576, 33554432}; }
MachineKey machineB() { return {"Intel Xeon", 16, 49152, 2097152, 62914560}; }

TunedChoice blocked() {
  TunedChoice c;
  c.run.variant = "blocked";
  c.run.blockY = 8;
  c.run.blockZ = 64;
  c.run.timeDepth = 4;
  c.run.timeTileY = 32;
  c.run.timeTileZ = 8;
  c.gptsPerSecond = 1.5;
  c.defaultGptsPerSecond = 1.25;
  c.nx = c.ny = c.nz = 256;
  c.date = "2026-11-24";
  return c;
}

std::string parseError(const std::string &text) {
  auto parsed = parseTuningFile(text, "t.json");
  EXPECT_FALSE(bool(parsed));
  return parsed ? "" : llvm::toString(parsed.takeError());
}

TEST(TuningFile, RoundTripsEveryField) {
  TuningFile file;
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "float", blocked());
  auto back = parseTuningFile(tuningFileText(file), "t.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->machines.size(), 1u);
  EXPECT_EQ(back->machines[0].key, machineA());
  const TunedStencil &s = back->machines[0].stencils.at("ete37");
  EXPECT_EQ(s.hash, "xxh64:1");
  const TunedChoice &c = s.byType.at("float");
  EXPECT_EQ(c.run.variant, "blocked");
  EXPECT_EQ(c.run.blockY, 8);
  EXPECT_EQ(c.run.blockZ, 64);
  EXPECT_EQ(c.run.timeDepth, 4);
  EXPECT_EQ(c.run.timeTileY, 32);
  EXPECT_EQ(c.run.timeTileZ, 8);
  EXPECT_DOUBLE_EQ(c.gptsPerSecond, 1.5);
  EXPECT_DOUBLE_EQ(c.defaultGptsPerSecond, 1.25);
  EXPECT_EQ(c.nz, 256);
  EXPECT_EQ(c.date, "2026-11-24");
  EXPECT_EQ(tuningFileText(*back), tuningFileText(file));
}

TEST(TuningFile, MergeKeepsOtherMachinesStencilsAndTypes) {
  TuningFile file;
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "float", blocked());
  mergeChoice(file, machineB(), "ete37", "xxh64:1", "float", TunedChoice{});
  mergeChoice(file, machineA(), "ete73", "xxh64:2", "float", TunedChoice{});
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "double", TunedChoice{});
  ASSERT_EQ(file.machines.size(), 2u);
  EXPECT_EQ(file.machines[0].stencils.size(), 2u);
  EXPECT_EQ(file.machines[0].stencils.at("ete37").byType.size(), 2u);
  EXPECT_EQ(file.machines[0].stencils.at("ete37").byType.at("float").run.variant, "blocked");
  EXPECT_EQ(file.machines[1].stencils.at("ete37").byType.at("float").run.variant, "auto");

  // Re-tuning replaces the entry; a new hash drops the stale types.
  TunedChoice planes = blocked();
  planes.run.variant = "planes";
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "float", planes);
  EXPECT_EQ(file.machines[0].stencils.at("ete37").byType.at("float").run.variant, "planes");
  mergeChoice(file, machineA(), "ete37", "xxh64:3", "float", blocked());
  EXPECT_EQ(file.machines[0].stencils.at("ete37").byType.size(), 1u);
  EXPECT_EQ(file.machines[0].stencils.at("ete37").hash, "xxh64:3");
}

TEST(TuningFile, WritesWholeAndMergesWithWhatIsThere) {
  const auto dir = std::filesystem::temp_directory_path() / "stencilc-tuningfile-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "tuning.json").string();
  TuningFile first;
  mergeChoice(first, machineB(), "ete73", "xxh64:2", "double", blocked());
  ASSERT_FALSE(bool(writeTuningFile(path, first)));
  auto read = readTuningFile(path);
  ASSERT_TRUE(bool(read)) << llvm::toString(read.takeError());
  mergeChoice(*read, machineA(), "ete37", "xxh64:1", "float", blocked());
  ASSERT_FALSE(bool(writeTuningFile(path, *read)));
  auto again = readTuningFile(path);
  ASSERT_TRUE(bool(again)) << llvm::toString(again.takeError());
  EXPECT_EQ(again->machines.size(), 2u);
  // Nothing but the file: the temporary was renamed into place.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir),
                          std::filesystem::directory_iterator()),
            1);
  // A directory that does not exist: an error naming the file, nothing written.
  llvm::Error e = writeTuningFile((dir / "no" / "t.json").string(), first);
  ASSERT_TRUE(bool(e));
  EXPECT_NE(llvm::toString(std::move(e)).find("no/t.json: cannot write"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(TuningFile, MalformedFilesSayWhereAndWhat) {
  EXPECT_EQ(parseError("{"), "t.json: not JSON: [1:1, byte=1]: Expected object key");
  EXPECT_EQ(parseError("[]"), "t.json: the top level: expected an object");
  EXPECT_EQ(parseError(R"({"machines": []})"), "t.json: format: missing");
  EXPECT_EQ(parseError(R"({"format": "stencilc-tuning 2", "machines": []})"),
            "t.json: format: 'stencilc-tuning 2' is not 'stencilc-tuning 1'");
  EXPECT_EQ(parseError(R"({"format": "stencilc-tuning 1", "machine": []})"),
            "t.json: the top level: unknown key 'machine'");

  TuningFile file;
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "float", blocked());
  const std::string good = tuningFileText(file);
  auto broken = [&](const std::string &from, const std::string &to) {
    std::string text = good;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return parseError(text.replace(at, from.size(), to));
  };
  EXPECT_EQ(broken(R"("variant": "blocked")", R"("variant": "fast")"),
            "t.json: machines[0].stencils.ete37.float.variant: 'fast' is not a CPU variant "
            "(naive, blocked, planes, auto)");
  EXPECT_EQ(broken(R"("time_depth": 4)", R"("time_depth": 0)"),
            "t.json: machines[0].stencils.ete37.float.time_depth: expected an integer from 1 to "
            "64");
  EXPECT_EQ(broken(R"("block_y": 8,)", ""),
            "t.json: machines[0].stencils.ete37.float.block_y: missing");
  EXPECT_EQ(broken(R"("cores": 2)", R"("cores": "two")"),
            "t.json: machines[0].machine.cores: expected an integer from 1 to 1048576");
  EXPECT_EQ(broken(R"("float": {)", R"("half": {)"),
            "t.json: machines[0].stencils.ete37: unknown key 'half'");
  EXPECT_EQ(broken(R"("gpts_per_s": 1.5)", R"("gpts_per_s": -1)"),
            "t.json: machines[0].stencils.ete37.float.gpts_per_s: expected a number, 0 or more");
}

TEST(TuningFile, LookupSaysWhyNothingApplies) {
  TuningFile file;
  EXPECT_EQ(findChoice(file, machineA(), "ete37", "xxh64:1", "float").whyNot,
            "it has no entry for this machine (AMD EPYC, 2 cores, L1d 32 KiB, L2 1 MiB, L3 32 "
            "MiB)");
  mergeChoice(file, machineB(), "ete37", "xxh64:1", "float", blocked());
  EXPECT_EQ(findChoice(file, machineA(), "ete37", "xxh64:1", "float").whyNot,
            "it has no entry for this machine (AMD EPYC, 2 cores, L1d 32 KiB, L2 1 MiB, L3 32 "
            "MiB), only for Intel Xeon, 16 cores, L1d 48 KiB, L2 2 MiB, L3 60 MiB");
  EXPECT_EQ(findChoice(file, machineB(), "ete73", "xxh64:1", "float").whyNot,
            "it has no entry for stencil 'ete73' on this machine");
  EXPECT_EQ(findChoice(file, machineB(), "ete37", "xxh64:9", "float").whyNot,
            "its entry for stencil 'ete37' is stale: it was tuned from xxh64:1, the stencil is "
            "now xxh64:9 (run `stencilc tune` again)");
  EXPECT_EQ(findChoice(file, machineB(), "ete37", "xxh64:1", "double").whyNot,
            "its entry for stencil 'ete37' has no double kernels");
  const TuningLookup found = findChoice(file, machineB(), "ete37", "xxh64:1", "float");
  ASSERT_NE(found.choice, nullptr);
  EXPECT_EQ(found.choice->run.variant, "blocked");
}

/// The hash follows the stencil, not its element type.
TEST(TuningFile, StencilHashIgnoresTheTypeButNotTheStencil) {
  auto hashOf = [](const std::string &text) {
    auto module = parseModuleFromString(text, "t.stencil", llvm::errs());
    EXPECT_TRUE(module.has_value());
    return module ? stencilHash(module->stencils.at(0)) : "";
  };
  const std::string heat = "stencil heat {\n grid 2d;\n type %s;\n field u : time;\n"
                           " field u_next : out advances u;\n scalar alpha;\n"
                           " u_next = u + alpha * dxx(u, 2) + 2 * u;\n}\n";
  auto with = [&](const std::string &type, const std::string &edit = "") {
    std::string text = heat;
    text.replace(text.find("%s"), 2, type);
    if (!edit.empty())
      text.replace(text.find("2 * u"), 5, edit);
    return text;
  };
  const std::string h = hashOf(with("float"));
  EXPECT_EQ(h.rfind("xxh64:", 0), 0u);
  EXPECT_EQ(h.size(), 6u + 16u);
  EXPECT_EQ(hashOf(with("double")), h);
  EXPECT_NE(hashOf(with("float", "3 * u")), h);
}

} // namespace

namespace {

TunedLaunch traditional() {
  TunedLaunch l;
  l.variant = "traditional";
  l.blockX = 64;
  l.blockY = 4;
  l.nw = 32;
  l.rows = 2;
  l.gptsPerSecond = 250;
  l.defaultGptsPerSecond = 140;
  l.nx = l.ny = 512;
  l.nz = 400;
  l.date = "2026-12-01";
  return l;
}

} // namespace

TEST(TuningFile, RoundTripsCudaLaunchesByDevice) {
  TuningFile file;
  mergeChoice(file, machineA(), "ete37", "xxh64:1", "float", blocked());
  mergeLaunch(file, {"NVIDIA H200", 90}, "ete37", "xxh64:1", "float", traditional());
  TunedLaunch gmem = traditional();
  gmem.variant = "gmem";
  gmem.nw = 0;
  gmem.rows = 1;
  mergeLaunch(file, {"NVIDIA A100-SXM4-80GB", 80}, "ete37", "xxh64:1", "double", gmem);
  auto back = parseTuningFile(tuningFileText(file), "t.json");
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->machines.size(), 1u);
  ASSERT_EQ(back->devices.size(), 2u);
  EXPECT_EQ(back->devices[0].key, (DeviceKey{"NVIDIA H200", 90}));
  const TunedLaunch &l = back->devices[0].stencils.at("ete37").byType.at("float");
  EXPECT_EQ(l.variant, "traditional");
  EXPECT_EQ(l.blockX, 64);
  EXPECT_EQ(l.blockY, 4);
  EXPECT_EQ(l.nw, 32);
  EXPECT_EQ(l.rows, 2);
  EXPECT_DOUBLE_EQ(l.gptsPerSecond, 250);
  EXPECT_DOUBLE_EQ(l.defaultGptsPerSecond, 140);
  EXPECT_EQ(l.nz, 400);
  EXPECT_EQ(l.date, "2026-12-01");

  // Every device's entry for (stencil, hash, type), in the file's order; none for another type.
  const auto floats = launchesFor(*back, "ete37", "xxh64:1", "float");
  ASSERT_EQ(floats.size(), 1u);
  EXPECT_EQ(floats[0].first.name, "NVIDIA H200");
  EXPECT_EQ(launchesFor(*back, "ete37", "xxh64:1", "double").size(), 1u);
  EXPECT_TRUE(launchesFor(*back, "ete37", "xxh64:2", "float").empty()) << "a stale hash";
  EXPECT_TRUE(launchesFor(*back, "ete73", "xxh64:1", "float").empty());

  // A new hash for the stencil on one device drops that device's other types only.
  mergeLaunch(file, {"NVIDIA H200", 90}, "ete37", "xxh64:2", "double", gmem);
  EXPECT_TRUE(launchesFor(file, "ete37", "xxh64:1", "float").empty());
  EXPECT_EQ(launchesFor(file, "ete37", "xxh64:2", "double").size(), 1u);
  EXPECT_EQ(launchesFor(file, "ete37", "xxh64:1", "double").size(), 1u) << "the A100's";
}

TEST(TuningFile, FilesWithoutDevicesStillRead) {
  auto file = parseTuningFile(R"({"format": "stencilc-tuning 1", "machines": []})", "t.json");
  ASSERT_TRUE(bool(file)) << llvm::toString(file.takeError());
  EXPECT_TRUE(file->devices.empty());
  // And a file without CUDA entries is written without "devices", as before.
  EXPECT_EQ(tuningFileText(*file).find("devices"), std::string::npos);
}

TEST(TuningFile, RejectsMalformedCudaLaunches) {
  const std::string head = R"({"format": "stencilc-tuning 1", "machines": [], "devices": [)";
  const std::string device = R"({"device": {"name": "NVIDIA H200", "compute_capability": 90}, )";
  auto withFloat = [&](const std::string &fields) {
    return head + device + R"("stencils": {"s": {"hash": "xxh64:1", "float": {)" + fields +
           "}}}}]}";
  };
  const std::string good = R"("variant": "planes", "block_x": 32, "block_y": 8, "nw": 64,
      "gpts_per_s": 1, "default_gpts_per_s": 1, "size": [1, 1, 1], "date": "d")";
  ASSERT_TRUE(bool(parseTuningFile(withFloat(good), "t.json")));
  EXPECT_EQ(parseError(withFloat(R"("variant": "naive", "block_x": 32, "block_y": 8, "nw": 64,
      "gpts_per_s": 1, "default_gpts_per_s": 1, "size": [1, 1, 1], "date": "d")")),
            "t.json: devices[0].stencils.s.float.variant: 'naive' is not a CUDA variant (gmem, "
            "ro, traditional, planes)");
  EXPECT_EQ(parseError(withFloat(R"("variant": "planes", "block_x": 0, "block_y": 8, "nw": 64,
      "gpts_per_s": 1, "default_gpts_per_s": 1, "size": [1, 1, 1], "date": "d")")),
            "t.json: devices[0].stencils.s.float.block_x: expected an integer from 1 to 1024");
  EXPECT_EQ(parseError(withFloat(good + R"(, "block_z": 4)")),
            "t.json: devices[0].stencils.s.float: unknown key 'block_z'");
  EXPECT_EQ(parseError(head + device + R"("stencils": {}}, )" + device + R"("stencils": {}}]})"),
            "t.json: devices[1].device: the same device as an earlier entry");
  EXPECT_EQ(parseError(R"({"format": "stencilc-tuning 1", "machines": [], "devices": {}})"),
            "t.json: devices: expected an array");
}
