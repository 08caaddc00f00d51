//===- Machine.cpp --------------------------------------------------------===//
#include "analysis/Machine.h"

#include "passes/Planner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <type_traits>

#ifndef STENCILC_MACHINES_DIR
#define STENCILC_MACHINES_DIR "bench/machines"
#endif

namespace stencilc::analysis {

namespace {

llvm::Error machineError(const std::string &path, const llvm::Twine &what) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "machine file '" + path + "': " + what);
}

} // namespace

std::string machinesDirectory() { return STENCILC_MACHINES_DIR; }

llvm::Expected<Machine> loadMachine(const std::string &nameOrPath) {
  std::string path = nameOrPath;
  if (!llvm::sys::fs::exists(path) && !llvm::StringRef(path).contains('/')) {
    llvm::SmallString<256> shipped(machinesDirectory());
    llvm::sys::path::append(shipped, nameOrPath + ".json");
    path = std::string(shipped);
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return machineError(path, buffer.getError().message());
  auto json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return machineError(path, llvm::toString(json.takeError()));
  const llvm::json::Object *o = json->getAsObject();
  if (!o)
    return machineError(path, "expected a JSON object");
  Machine m;
  auto number = [&](llvm::StringRef key, double &out) -> llvm::Error {
    auto v = o->getNumber(key);
    if (!v || *v <= 0)
      return machineError(path, "needs a positive number '" + key + "'");
    out = *v;
    return llvm::Error::success();
  };
  if (auto name = o->getString("name"))
    m.name = name->str();
  if (auto kind = o->getString("kind"))
    m.kind = kind->str();
  if (m.kind != "cpu" && m.kind != "gpu")
    return machineError(path, "'kind' must be \"cpu\" or \"gpu\"");
  if (auto source = o->getString("source"))
    m.source = source->str();
  if (auto e = number("bandwidth_gbs", m.bandwidthGBs))
    return e;
  if (auto e = number("peak_gflops_float", m.peakGflopsFloat))
    return e;
  if (auto e = number("peak_gflops_double", m.peakGflopsDouble))
    return e;
  m.writeAllocate = o->getBoolean("write_allocate").getValueOr(m.kind == "cpu");
  if (auto arch = o->getString("arch")) {
    m.arch = arch->str();
    auto target = planTargetNamed(m.arch);
    if (m.kind != "gpu" || !target || target->kind != PlanTarget::Kind::Cuda)
      return machineError(path, "'arch' must name a CUDA architecture (sm_80, sm_90, ...) of a "
                                "\"gpu\" machine, not '" +
                                    m.arch + "'");
  }
  if (const llvm::json::Object *g = o->getObject("gpu")) {
    if (m.kind != "gpu")
      return machineError(path, "a \"gpu\" object belongs to a machine of kind \"gpu\"");
    GpuFigures f;
    auto figure = [&](llvm::StringRef key, auto &out, bool required) -> llvm::Error {
      auto v = g->getNumber(key);
      if (!v) {
        if (required)
          return machineError(path, "'gpu' needs a positive number '" + key + "'");
        return llvm::Error::success();
      }
      if (*v <= 0)
        return machineError(path, "'gpu." + key + "' must be positive");
      out = static_cast<std::remove_reference_t<decltype(out)>>(*v);
      return llvm::Error::success();
    };
    if (auto e = figure("multiprocessors", f.multiprocessors, true))
      return e;
    if (auto e = figure("clock_ghz", f.clockGHz, true))
      return e;
    if (auto e = figure("l2_bytes", f.l2Bytes, true))
      return e;
    if (auto e = figure("l2_bandwidth_gbs", f.l2BandwidthGBs, true))
      return e;
    if (auto e = figure("memory_latency_ns", f.memoryLatencyNs, true))
      return e;
    if (auto e = figure("shared_bytes_per_sm", f.sharedBytesPerSm, true))
      return e;
    if (auto e = figure("l1_bytes_per_sm", f.l1BytesPerSm, true))
      return e;
    if (auto e = figure("l1_sectors_per_clock", f.l1SectorsPerClock, false))
      return e;
    if (auto e = figure("registers_per_sm", f.registersPerSm, false))
      return e;
    if (auto e = figure("max_threads_per_sm", f.maxThreadsPerSm, false))
      return e;
    if (auto e = figure("max_blocks_per_sm", f.maxBlocksPerSm, false))
      return e;
    if (auto e = figure("warp_instructions_per_clock", f.warpInstructionsPerClock, false))
      return e;
    if (auto e = figure("shared_wavefronts_per_clock", f.sharedWavefrontsPerClock, false))
      return e;
    if (auto e = figure("fp64_instructions_per_clock", f.fp64InstructionsPerClock, false))
      return e;
    if (const llvm::json::Object *sources = g->getObject("sources"))
      for (const auto &[key, value] : *sources)
        if (auto text = value.getAsString())
          f.sources[key.str()] = text->str();
    m.gpu = f;
  }
  return m;
}

std::string machineJson(const Machine &m) {
  // Written by hand rather than through llvm::json so that the numbers keep
  // the precision they were measured with ("2.722", not 2.7220000000000002).
  auto quoted = [](const std::string &text) {
    return llvm::formatv("{0}", llvm::json::Value(text)).str();
  };
  return fmt::format("{{\n"
                     "  \"name\": {},\n"
                     "  \"kind\": {},\n"
                     "  \"source\": {},\n"
                     "  \"bandwidth_gbs\": {:.3f},\n"
                     "  \"peak_gflops_float\": {:.3f},\n"
                     "  \"peak_gflops_double\": {:.3f},\n"
                     "  \"write_allocate\": {}{}\n"
                     "}}\n",
                     quoted(m.name), quoted(m.kind), quoted(m.source), m.bandwidthGBs,
                     m.peakGflopsFloat, m.peakGflopsDouble, m.writeAllocate,
                     m.arch.empty() ? "" : ",\n  \"arch\": " + quoted(m.arch));
}

} // namespace stencilc::analysis
