//===- CpuRunEntry.cpp ----------------------------------------------------===//
#include "backends/cpu/CpuRunEntry.h"

#include "llvm/ADT/StringExtras.h"

#include <cctype>
#include <fmt/format.h>

namespace stencilc::backend {

std::string cpuRunDefaultsText(const kernel::RunDefaults &d) {
  const target::RunConfig &run = d.run;
  std::string variant = run.variant;
  variant[0] = char(std::toupper(static_cast<unsigned char>(variant[0])));
  std::string origin;
  for (llvm::StringRef line : llvm::split(d.origin, '\n'))
    origin += "/// " + line.str() + "\n";
  return fmt::format(
      "/// The options run() takes when given none, and the time steps per pass (with\n"
      "/// their tiles) for rt::runTimeTiled (stencilc/timeloop/TimeTiling.h; depth 1: single\n"
      "/// sweeps).\n{}"
      "inline constexpr rt::RunOptions kDefaultOptions{{rt::Variant::{}, {}, {}, {}, "
      "std::nullopt}};\n"
      "inline constexpr rt::TimeTiling kTimeTiling{{{}, {}, {}, {}}};\n",
      origin, variant, run.blockY, run.blockZ, run.blockX, run.timeDepth, run.timeTileX,
      run.timeTileY, run.timeTileZ);
}

std::string cpuRunBody(const kernel::KernelModule &module, const CpuSchedule &plan,
                       const std::string &kernelName) {
  struct Case {
    const char *variant; ///< rt::Variant enumerator
    const char *name;    ///< the kernel IR's variant
    CpuTile tile;        ///< default tiles
  };
  const Case cases[] = {{"Naive", "naive", {}},
                        {"Blocked", "blocked", plan.blockedTile},
                        {"Planes", "planes", plan.planesTile}};
  // The partial sums and staged coefficients stay indexed by x in the whole
  // row, so a box needs no other change than the loop bounds.
  const rt::LayerFootprint &f = plan.blockedFootprint;
  std::string out = fmt::format(
      "  const rt::Box box = rt::regionOf(\"{}\", a.extent, options.region);\n"
      "  if (box.empty())\n    return;\n"
      "  const int nx = box.x1 - box.x0, ny = box.y1 - box.y0, nz = box.z1 - box.z0;\n"
      "  // The planes the stencil reads again in z (stencilc/abi/LayerCondition.h): Auto\n"
      "  // is naive where they fit this machine's last-level cache whole, else blocked,\n"
      "  // whose tiles are as tall as fit half of its L2.\n"
      "  constexpr rt::LayerFootprint kFootprint{{{}, {}, {}, {}, {}}};\n"
      "  switch (rt::chooseVariant(options.variant, kFootprint, nx, ny)) {{\n",
      kernelName, f.reachX, f.reachY, f.reachZ, f.planeFields, f.elementBytes);
  for (const Case &c : cases) {
    out += fmt::format("  case rt::Variant::{}: {{\n", c.variant);
    if (c.tile.y) {
      out += "    const int bx = rt::chooseRowBlock(options.blockX, nx);\n";
      if (std::string(c.name) == "blocked" && f.planeFields > 0)
        out +=
            fmt::format("    // {} rows where the L2's size is unknown.\n"
                        "    const int by = rt::chooseLayerBlock(options.blockY, kFootprint, bx, "
                        "{}, ny);\n",
                        c.tile.y, c.tile.y);
      else
        out +=
            fmt::format("    const int by = rt::chooseBlock(options.blockY, {}, ny);\n", c.tile.y);
      out += fmt::format("    const int bz = rt::chooseBlock(options.blockZ, {}, nz);\n", c.tile.z);
    }
    for (const kernel::SweepKernels &sweep : module.sweeps)
      for (const kernel::Variant &v : sweep.variants)
        if (v.name == c.name)
          out += fmt::format("    {}(a, t, box{});\n", v.entry,
                             sweep.find(v.entry)->params.tileSizes ? ", bx, by, bz" : "");
    out += "    return;\n  }\n";
  }
  out += "  case rt::Variant::Auto:\n    break; // rt::chooseVariant never returns it\n  }\n";
  out += fmt::format("  throw rt::KernelError(\"{}: unknown variant\");\n", kernelName);
  return out;
}

} // namespace stencilc::backend
