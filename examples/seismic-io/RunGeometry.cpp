//===- RunGeometry.cpp ----------------------------------------------------===//
#include "RunGeometry.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace seisio {

void writeRunGeometry(const std::string &path, const RunGeometry &r) {
  const Geometry &g = r.grid;
  auto at = [&](int i, int j, int k) {
    return fmt::format("[{:.17g}, {:.17g}, {:.17g}]", g.x0 + i * g.dx, g.y0 + j * g.dy,
                       g.z0 + k * g.dz);
  };
  std::string optional;
  if (!r.volumeAxes.empty())
    optional += fmt::format("  \"volume_axes\": \"{}\",\n", r.volumeAxes);
  if (!r.shots.empty()) {
    std::string list;
    for (const auto &s : r.shots)
      list += fmt::format("{}[{}, {}, {}]", list.empty() ? "" : ", ", s[0], s[1], s[2]);
    optional += fmt::format("  \"shots_index\": [{}],\n", list);
  }
  auto positions = [&](const char *key, const std::vector<std::array<double, 3>> &points) {
    if (points.empty())
      return;
    std::string list;
    for (const auto &p : points)
      list +=
          fmt::format("{}[{:.17g}, {:.17g}, {:.17g}]", list.empty() ? "" : ", ", p[0], p[1], p[2]);
    optional += fmt::format("  \"{}\": [{}],\n", key, list);
  };
  positions("source_positions", r.sourcePositions);
  positions("receiver_positions", r.receiverPositions);
  const std::string text = fmt::format(
      "{{\n"
      "  \"program\": \"{}\",\n"
      "  \"units\": {{\"length\": \"m\", \"time\": \"s\", \"velocity\": \"m/s\"}},\n"
      "  \"shape\": [{}, {}, {}],\n"
      "  \"spacing\": [{:.17g}, {:.17g}, {:.17g}],\n"
      "  \"origin\": [{:.17g}, {:.17g}, {:.17g}],\n"
      "  \"dt\": {:.17g},\n"
      "  \"steps\": {},\n"
      "  \"snapshot_every\": {},\n"
      "  \"source_index\": [{}, {}, {}],\n"
      "  \"source\": {},\n"
      "{}"
      "  \"receivers\": {{\"axis\": \"x\", \"count\": {}, \"index\": [{}, {}, {}], \"first\": "
      "{}}},\n"
      "  \"slices\": {{\"xz_y_index\": {}, \"xy_z_index\": {}}}\n"
      "}}\n",
      r.program, g.nx, g.ny, g.nz, g.dx, g.dy, g.dz, g.x0, g.y0, g.z0, r.dt, r.steps,
      r.snapshotEvery, r.source[0], r.source[1], r.source[2],
      at(r.source[0], r.source[1], r.source[2]), optional,
      r.receiverCount > 0 ? r.receiverCount : g.nx, r.receiverFirst, r.source[1], r.receiverDepth,
      at(r.receiverFirst, r.source[1], r.receiverDepth), r.sliceY, r.sliceZ);
  const std::string part = path + ".part";
  {
    std::ofstream os(part);
    if (!(os << text) || !os.flush()) {
      std::error_code ignored;
      std::filesystem::remove(part, ignored);
      throw std::runtime_error(path + ": cannot write");
    }
  }
  std::error_code error;
  std::filesystem::rename(part, path, error);
  if (error)
    throw std::runtime_error(path + ": cannot write: " + error.message());
}

} // namespace seisio
