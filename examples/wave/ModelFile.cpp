//===- ModelFile.cpp ------------------------------------------------------===//
#include "ModelFile.h"

#include "SegyModel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

namespace wave {

bool isSegyModelPath(const std::string &path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  auto endsWith = [&](const char *tail) {
    const std::string t = tail;
    return lower.size() >= t.size() && lower.compare(lower.size() - t.size(), t.size(), t) == 0;
  };
  if (endsWith(".segy") || endsWith(".sgy"))
    return true;
  if (endsWith(".npy"))
    return false;
  throw std::invalid_argument(fmt::format("--model {}: expected layered, homogeneous, or a file "
                                          "named .npy, .segy or .sgy",
                                          path));
}

ModelFile inspectModelFile(const std::string &path) {
  if (!isSegyModelPath(path))
    return {path, volumeSize(path), std::nullopt}; // agreed by every process
  // Every process reads the headers; all must succeed and see the same model.
  seisio::Geometry g;
  onEveryProcess([&] { g = seisio::readSegyModelGeometry(path); });
  expectSameOnEveryProcess(g.describe(), path + ": the model's geometry");
  return {path, {g.nx, g.ny, g.nz}, g};
}

double spacingFor(const ModelFile &file, double h, bool hGiven) {
  if (!file.geometry)
    return h;
  const seisio::Geometry &g = *file.geometry;
  if (g.dx != g.dz || g.dy != g.dz)
    throw std::invalid_argument(fmt::format("{}: spacing {:g} x {:g} x {:g} m; the wave "
                                            "operators need the same spacing along x, y and z",
                                            file.path, g.dx, g.dy, g.dz));
  if (hGiven && std::abs(h - g.dz) > 1e-9 * g.dz)
    throw std::invalid_argument(
        fmt::format("--h {:g} disagrees with {}, whose spacing is {:g} m", h, file.path, g.dz));
  return g.dz;
}

void readModelFile(const ModelFile &file, const Distribution &dist, rt::Grid<float> &local) {
  const rt::Box o = dist.owned();
  if (file.geometry)
    onEveryProcess([&] { seisio::readSegyModel(file.path, *file.geometry, o, local); });
  else
    dist.read(file.path, local);
  // The halo beyond the model repeats its faces, as the built-in models' does:
  // the ETE table has a column for every velocity a point of the grid holds.
  const rt::Extent &n = file.extent;
  local.forEachPointWithHalo([&](int li, int lj, int lk) {
    const int i = li + o.x0, j = lj + o.y0, k = lk + o.z0;
    const int ci = std::clamp(i, 0, n.nx - 1), cj = std::clamp(j, 0, n.ny - 1),
              ck = std::clamp(k, 0, n.nz - 1);
    if (ci != i || cj != j || ck != k)
      local(li, lj, lk) = local(ci - o.x0, cj - o.y0, ck - o.z0);
  });
}

} // namespace wave
