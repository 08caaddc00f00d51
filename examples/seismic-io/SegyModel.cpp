//===- SegyModel.cpp ------------------------------------------------------===//
#include "SegyModel.h"

#include "SegyFile.h"

#include <segyio/segy.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace seisio {

namespace {
constexpr int kScalar = -100; // coordinates in centimetres

double cdpX(const TraceHeader &h) {
  return h.coordinate(SEGY_TR_CDP_X, SEGY_TR_SOURCE_GROUP_SCALAR);
}
double cdpY(const TraceHeader &h) {
  return h.coordinate(SEGY_TR_CDP_Y, SEGY_TR_SOURCE_GROUP_SCALAR);
}
} // namespace

Geometry readSegyModelGeometry(const std::string &path) {
  const SegyReader file(path);
  auto fail = [&](const std::string &why) { throw std::runtime_error(path + ": " + why); };
  const int traces = file.traces();
  std::vector<TraceHeader> headers;
  headers.reserve(traces);
  for (int t = 0; t < traces; ++t)
    headers.push_back(file.header(t));
  // The first inline's length is nx; every inline must have it.
  const int firstInline = headers[0].get(SEGY_TR_INLINE);
  int nx = 1;
  while (nx < traces && headers[nx].get(SEGY_TR_INLINE) == firstInline)
    ++nx;
  if (traces % nx != 0)
    fail(fmt::format("{} traces are not whole inlines of {} traces (the first inline's "
                     "length): not a regular grid",
                     traces, nx));
  const int ny = traces / nx;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const int line = headers[j * nx + i].get(SEGY_TR_INLINE);
      if (line != headers[j * nx].get(SEGY_TR_INLINE) ||
          (j > 0 && i == 0 && line == headers[(j - 1) * nx].get(SEGY_TR_INLINE)))
        fail(fmt::format("trace {} has inline {}: the {} traces are not {} inlines of {}",
                         j * nx + i + 1, line, traces, ny, nx));
    }
  Geometry g;
  g.nx = nx;
  g.ny = ny;
  g.nz = file.samples();
  g.dz = file.interval() / 1000.0;
  if (!(g.dz > 0))
    fail(
        fmt::format("depth step {} mm (sample interval field): must be positive", file.interval()));
  g.z0 = headers[0].get(SEGY_TR_DELAY_REC_TIME);
  g.x0 = cdpX(headers[0]);
  g.y0 = cdpY(headers[0]);
  g.dx = nx > 1 ? cdpX(headers[1]) - g.x0 : 0;
  g.dy = ny > 1 ? cdpY(headers[nx]) - g.y0 : 0;
  bool anyCoordinate = false;
  for (const TraceHeader &h : headers)
    anyCoordinate = anyCoordinate || cdpX(h) != 0 || cdpY(h) != 0;
  if (!anyCoordinate) {
    g.dx = g.dy = g.dz;
    g.lateralFromFile = false;
    return g;
  }
  // A 2D section or a single inline says nothing about the other spacing: take dz's.
  if (nx == 1)
    g.dx = g.dz;
  if (ny == 1)
    g.dy = g.dz;
  if (!(g.dx > 0) || !(g.dy > 0))
    fail(fmt::format("CDP coordinates give spacing dx = {:g} m, dy = {:g} m: not increasing "
                     "along crosslines and inlines",
                     g.dx, g.dy));
  const double tolerance = 0.01 * std::min(g.dx, g.dy) + 0.01;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const TraceHeader &h = headers[j * nx + i];
      const double x = cdpX(h), y = cdpY(h);
      const double ex = g.x0 + i * g.dx, ey = g.y0 + j * g.dy;
      if (std::abs(x - ex) > tolerance || std::abs(y - ey) > tolerance)
        fail(fmt::format("trace {} (inline {}, crossline {}) is at ({:g}, {:g}) m, not at "
                         "({:g}, {:g}) m on the regular grid of the first traces: the model must "
                         "be a regular grid with axes along x and y",
                         j * nx + i + 1, j + 1, i + 1, x, y, ex, ey));
    }
  return g;
}

void readSegyModel(const std::string &path, const Geometry &g, const rt::Box &part,
                   rt::Grid<float> &local) {
  const SegyReader file(path);
  if (file.traces() != g.nx * g.ny || file.samples() != g.nz)
    throw std::runtime_error(fmt::format("{}: {} traces of {} samples, expected {}x{} of {}", path,
                                         file.traces(), file.samples(), g.nx, g.ny, g.nz));
  const int halo = local.halo();
  std::vector<float> column(std::size_t(g.nz));
  for (int j = std::max(0, part.y0 - halo); j < std::min(g.ny, part.y1 + halo); ++j)
    for (int i = std::max(0, part.x0 - halo); i < std::min(g.nx, part.x1 + halo); ++i) {
      file.readTrace(j * g.nx + i, column.data());
      for (int k = std::max(0, part.z0 - halo); k < std::min(g.nz, part.z1 + halo); ++k)
        local(i - part.x0, j - part.y0, k - part.z0) = column[std::size_t(k)];
    }
}

void writeSegyModel(const std::string &path, const rt::Grid<float> &model, const Geometry &g) {
  if (model.dims() != 3 || model.nx() != g.nx || model.ny() != g.ny || model.nz() != g.nz)
    throw std::invalid_argument(fmt::format("{}: the model has {}x{}x{} points, its geometry {}",
                                            path, model.nx(), model.ny(), model.nz(),
                                            g.describe()));
  const double millimetres = g.dz * 1000;
  if (std::abs(millimetres - std::round(millimetres)) > 1e-6 * millimetres)
    throw std::invalid_argument(
        fmt::format("{}: dz = {:g} m is not a whole number of millimetres, which SEG-Y's sample "
                    "interval field holds",
                    path, g.dz));
  if (g.z0 != std::round(g.z0) || std::abs(g.z0) > 32767)
    throw std::invalid_argument(fmt::format(
        "{}: origin depth {:g} m is not whole metres within ±32767, which the delay field holds",
        path, g.z0));
  SegyWriter file(path, g.nz, int(std::lround(millimetres)), /*traces per ensemble*/ 0,
                  {"Velocity model (m/s), one trace per (x, y) column, depth down",
                   fmt::format("{}", g.describe()),
                   "Depth step in the sample interval field in mm, first depth (delay) in m",
                   "Inline = y index + 1, crossline = x index + 1, CDP X/Y in cm (scalar -100)"});
  std::vector<float> column(std::size_t(g.nz));
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      TraceHeader h;
      const int trace = j * g.nx + i;
      h.set(SEGY_TR_SEQ_LINE, trace + 1);
      h.set(SEGY_TR_SEQ_FILE, trace + 1);
      h.set(SEGY_TR_TRACE_ID, 1);
      h.set(SEGY_TR_INLINE, j + 1);
      h.set(SEGY_TR_CROSSLINE, i + 1);
      h.set(SEGY_TR_SOURCE_GROUP_SCALAR, kScalar);
      h.set(SEGY_TR_CDP_X, centimetres(g.x0 + i * g.dx, "x"));
      h.set(SEGY_TR_CDP_Y, centimetres(g.y0 + j * g.dy, "y"));
      h.set(SEGY_TR_COORD_UNITS, 1); // length
      h.set(SEGY_TR_DELAY_REC_TIME, int32_t(g.z0));
      for (int k = 0; k < g.nz; ++k)
        column[std::size_t(k)] = model(i, j, k);
      file.writeTrace(trace, h, column.data());
    }
  file.commit();
}

} // namespace seisio
