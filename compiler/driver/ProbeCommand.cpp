//===- ProbeCommand.cpp - `stencilc probe`: measure this machine's roofs ---===//
//
//   stencilc probe [-o FILE] [--name NAME] [--quick]
//
// Writes templates/probe/probe.cpp.tmpl to a scratch directory, compiles it
// as `stencilc bench` compiles kernels (-O3 -march=native -fopenmp), runs it
// on every core and turns what it prints (triad bandwidth, FMA peak in float
// and double) into a machine file for `stencilc analyze --machine`. The whole
// run takes well under a minute.
//
//===----------------------------------------------------------------------===//
#include "analysis/HostCaches.h"
#include "analysis/Machine.h"
#include "driver/Driver.h"
#include "support/Template.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>
#include <thread>

#ifndef STENCILC_RUNTIME_DIR
#define STENCILC_RUNTIME_DIR "runtime"
#endif

using namespace stencilc;

namespace {

llvm::cl::SubCommand probeCommand("probe",
                                  "Measure this machine's bandwidth and peak flops into a machine "
                                  "file");
llvm::cl::opt<std::string> outputFile("o", llvm::cl::desc("Machine file to write (- for stdout)"),
                                      llvm::cl::value_desc("file"), llvm::cl::init("-"),
                                      llvm::cl::sub(probeCommand));
llvm::cl::opt<std::string> machineName("name",
                                       llvm::cl::desc("Machine name (default: the CPU model)"),
                                       llvm::cl::sub(probeCommand));
llvm::cl::opt<bool> quick("quick",
                          llvm::cl::desc("Smaller arrays and fewer rounds (for tests; less exact)"),
                          llvm::cl::sub(probeCommand));

bool run(const std::vector<std::string> &argv, const std::string &stdoutFile) {
  auto program = llvm::sys::findProgramByName(argv[0]);
  if (!program) {
    driver::reportError("cannot find '" + argv[0] + "'");
    return false;
  }
  std::vector<llvm::StringRef> args(argv.begin(), argv.end());
  llvm::Optional<llvm::StringRef> redirects[3] = {llvm::None, llvm::None, llvm::None};
  if (!stdoutFile.empty())
    redirects[1] = llvm::StringRef(stdoutFile);
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*program, args, llvm::None, redirects, 0, 0, &message);
  if (rc != 0) {
    driver::reportError("'" + argv[0] + "' failed" + (message.empty() ? "" : ": " + message));
    return false;
  }
  return true;
}

std::string inDir(const llvm::SmallString<128> &dir, const char *name) {
  llvm::SmallString<256> p(dir);
  llvm::sys::path::append(p, name);
  return std::string(p);
}

/// Compiles and runs the probe in `dir`; fills `values` with its `key value` lines.
bool probeIn(const llvm::SmallString<128> &dir, std::map<std::string, double> &values) {
  std::string source = inDir(dir, "probe.cpp"), binary = inDir(dir, "probe"),
              output = inDir(dir, "probe.out");
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(source, ec);
    if (ec) {
      driver::reportError("cannot write '" + source + "': " + ec.message());
      return false;
    }
    // 2^24 doubles per triad array (3 x 128 MiB) is far beyond any last-level cache.
    os << renderTemplate(
        embeddedTemplate("probe/probe.cpp.tmpl"),
        {{"TRIAD_ELEMENTS", quick ? "std::size_t(1) << 22" : "std::size_t(1) << 24"},
         {"FMA_ITERATIONS", quick ? "2000000L" : "20000000L"}});
  }
  const char *cxxEnv = std::getenv("CXX");
  std::string cxx = cxxEnv && *cxxEnv ? cxxEnv : "c++";
  llvm::errs() << "probe: compiling with " << cxx << " -O3 -march=native -fopenmp\n";
  if (!run({cxx, "-std=c++20", "-O3", "-march=native", "-fopenmp",
            std::string("-I") + STENCILC_RUNTIME_DIR + "/include", source, "-o", binary},
           ""))
    return false;
  llvm::errs() << "probe: measuring triad bandwidth and FMA throughput on every core\n";
  if (!run({binary}, output))
    return false;
  auto text = llvm::MemoryBuffer::getFile(output, /*IsText=*/true);
  if (!text) {
    driver::reportError("cannot read the probe's output");
    return false;
  }
  llvm::SmallVector<llvm::StringRef, 8> lines;
  (*text)->getBuffer().split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto [key, value] = line.split(' ');
    double v = 0;
    if (!value.trim().getAsDouble(v))
      values[key.str()] = v;
  }
  for (const char *key : {"triad_gbs", "peak_gflops_float", "peak_gflops_double", "threads"})
    if (!values.count(key) || values[key] <= 0) {
      driver::reportError(fmt::format("the probe printed no positive '{}'", key));
      return false;
    }
  return true;
}

int runProbe() {
  auto started = std::chrono::steady_clock::now();
  llvm::SmallString<128> dir;
  if (std::error_code ec = llvm::sys::fs::createUniqueDirectory("stencilc-probe", dir)) {
    driver::reportError("cannot create a scratch directory: " + ec.message());
    return 1;
  }
  std::map<std::string, double> values;
  bool ok = probeIn(dir, values);
  for (const char *name : {"probe.cpp", "probe", "probe.out"})
    llvm::sys::fs::remove(inDir(dir, name));
  llvm::sys::fs::remove(dir);
  if (!ok)
    return 1;

  analysis::Machine m;
  int threads = int(values["threads"]);
  m.name = machineName.empty() ? fmt::format("{}, {} threads", analysis::readCpuModel(), threads)
                               : std::string(machineName);
  m.kind = "cpu";
  std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  m.source = fmt::format("measured by stencilc probe on {}: STREAM-like triad (best of 8, 24 B "
                         "per element) and FMA throughput ({}-byte vectors), {} OpenMP threads",
                         date, int(values["vector_bytes"]), threads);
  m.bandwidthGBs = values["triad_gbs"];
  m.peakGflopsFloat = values["peak_gflops_float"];
  m.peakGflopsDouble = values["peak_gflops_double"];
  m.writeAllocate = true; // the generated CPU kernels use ordinary stores
  std::string json = analysis::machineJson(m);

  if (outputFile == "-") {
    llvm::outs() << json;
  } else {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (ec) {
      driver::reportError("cannot write '" + outputFile + "': " + ec.message());
      return 1;
    }
    os << json;
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  llvm::errs() << fmt::format("probe: {:.1f} GB/s triad, {:.1f} GFLOP/s float, {:.1f} GFLOP/s "
                              "double ({:.1f} s)\n",
                              m.bandwidthGBs, m.peakGflopsFloat, m.peakGflopsDouble, seconds);
  return 0;
}

driver::CommandRegistration registration(probeCommand, &runProbe);

} // namespace
