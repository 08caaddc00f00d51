//===- RunFiles.cpp - What an imaging run leaves for scripts/plot.py -------===//
#include "RunFiles.h"

#include "stencilc/io/Npy.h"

#include <fmt/format.h>

#include <filesystem>
#include <regex>
#include <vector>

namespace rtm {

rt::Grid<float> xzSlice(const rt::Grid<float> &u, int j) {
  rt::Grid<float> slice = rt::Grid<float>::make2d(u.nx(), u.nz(), 0);
  for (int k = 0; k < u.nz(); ++k)
    for (int i = 0; i < u.nx(); ++i)
      slice(i, k) = u(i, j, k);
  return slice;
}

void writeAtomically(const std::string &path,
                     const std::function<void(const std::string &)> &write) {
  const std::string tmp = path + ".partial";
  try {
    write(tmp);
    std::filesystem::rename(tmp, path);
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

/// data[m] is what the receivers held after forward step m, at t = (m + 1) dt;
/// the file's sample s is the field at t = s dt (docs/SEISMIC.md §Conventions),
/// so sample 0 is the initial, zero field.
void writeGatherNpy(const std::vector<std::vector<float>> &data, const std::string &path) {
  const int steps = int(data.size()), receivers = data.empty() ? 0 : int(data[0].size());
  rt::Grid<float> gather = rt::Grid<float>::make2d(receivers, steps + 1, 0);
  for (int r = 0; r < receivers; ++r)
    gather(r, 0) = 0;
  for (int m = 0; m < steps; ++m)
    for (int r = 0; r < receivers; ++r)
      gather(r, m + 1) = data[size_t(m)][size_t(r)];
  rt::writeNpy(gather, path);
}

void writeShotFigures(const ShotFigures &figures, const std::string &dir) {
  // An earlier run's slices would be drawn with this run's geometry: gone first.
  const std::regex slice(R"(snapshot_\d{5}_xz\.npy)");
  std::vector<std::filesystem::path> stale;
  for (const auto &entry : std::filesystem::directory_iterator(dir))
    if (std::regex_match(entry.path().filename().string(), slice))
      stale.push_back(entry.path());
  for (const auto &path : stale)
    std::filesystem::remove(path);
  writeAtomically(dir + "/shot_gather.npy",
                  [&](const std::string &p) { writeGatherNpy(figures.recorded, p); });
  writeAtomically(dir + "/shot_reflections.npy",
                  [&](const std::string &p) { writeGatherNpy(figures.reflections, p); });
  for (const auto &[step, slice] : figures.slices)
    writeAtomically(fmt::format("{}/snapshot_{:05d}_xz.npy", dir, step),
                    [&](const std::string &p) { rt::writeNpy(slice, p); });
}

} // namespace rtm
