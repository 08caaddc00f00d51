//===- SegyGather.cpp -----------------------------------------------------===//
#include "SegyGather.h"

#include "SegyFile.h"

#include <segyio/segy.h>

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace seisio {

namespace {
constexpr int kScalar = -100; // coordinates, depths and elevations in centimetres
} // namespace

void writeSegyGather(const std::string &path, const ShotGather &g) {
  const int receivers = int(g.receivers.size());
  if (g.values.size() != std::size_t(receivers) * g.samples)
    throw std::logic_error("a gather's values are receivers x samples");
  const double microseconds = g.dt * 1e6;
  if (!(microseconds >= 0.5 && microseconds < 65535.5))
    throw std::invalid_argument(
        fmt::format("{}: dt = {:g} s; SEG-Y rev 1 holds 1 to 65535 µs", path, g.dt));
  SegyWriter file(path, g.samples, int(std::lround(microseconds)), receivers,
                  {fmt::format("Shot gather {}: {} receivers, {} samples, dt {:.9g} s (header: "
                               "rounded to the microsecond)",
                               g.shot, receivers, g.samples, g.dt),
                   fmt::format("Source at ({:g}, {:g}, {:g}) m (x, y, depth)", g.source.x,
                               g.source.y, g.source.z),
                   "Coordinates, depths and elevations in cm (scalars -100); offsets in m"});
  for (int r = 0; r < receivers; ++r) {
    const Position &p = g.receivers[std::size_t(r)];
    TraceHeader h;
    h.set(SEGY_TR_SEQ_LINE, r + 1);
    h.set(SEGY_TR_SEQ_FILE, r + 1);
    h.set(SEGY_TR_FIELD_RECORD, g.shot);
    h.set(SEGY_TR_NUMBER_ORIG_FIELD, r + 1);
    h.set(SEGY_TR_ENERGY_SOURCE_POINT, g.shot);
    h.set(SEGY_TR_TRACE_ID, 1); // seismic data
    h.set(SEGY_TR_DATA_USE, 1); // production
    // Signed: negative on the side of decreasing x, as is usual for a 2D line.
    const double offset = std::hypot(p.x - g.source.x, p.y - g.source.y);
    h.set(SEGY_TR_OFFSET, int32_t(std::lround(p.x < g.source.x ? -offset : offset)));
    h.set(SEGY_TR_ELEV_SCALAR, kScalar);
    h.set(SEGY_TR_RECV_GROUP_ELEV, -centimetres(p.z, "receiver depth"));
    h.set(SEGY_TR_SOURCE_DEPTH, centimetres(g.source.z, "source depth"));
    h.set(SEGY_TR_SOURCE_GROUP_SCALAR, kScalar);
    h.set(SEGY_TR_SOURCE_X, centimetres(g.source.x, "source x"));
    h.set(SEGY_TR_SOURCE_Y, centimetres(g.source.y, "source y"));
    h.set(SEGY_TR_GROUP_X, centimetres(p.x, "receiver x"));
    h.set(SEGY_TR_GROUP_Y, centimetres(p.y, "receiver y"));
    h.set(SEGY_TR_CDP_X, centimetres((p.x + g.source.x) / 2, "midpoint x"));
    h.set(SEGY_TR_CDP_Y, centimetres((p.y + g.source.y) / 2, "midpoint y"));
    h.set(SEGY_TR_COORD_UNITS, 1); // length
    file.writeTrace(r, h, &g.values[std::size_t(r) * g.samples]);
  }
  file.commit();
}

ShotGather readSegyGather(const std::string &path) {
  const SegyReader file(path);
  ShotGather g;
  g.samples = file.samples();
  const TraceHeader first = file.header(0);
  const int interval =
      first.get(SEGY_TR_SAMPLE_INTER) ? first.get(SEGY_TR_SAMPLE_INTER) : file.interval();
  if (interval <= 0)
    throw std::runtime_error(fmt::format("{}: sample interval {} µs", path, interval));
  g.dt = interval * 1e-6;
  g.shot = first.get(SEGY_TR_FIELD_RECORD);
  g.source = {first.coordinate(SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_GROUP_SCALAR),
              first.coordinate(SEGY_TR_SOURCE_Y, SEGY_TR_SOURCE_GROUP_SCALAR),
              first.coordinate(SEGY_TR_SOURCE_DEPTH, SEGY_TR_ELEV_SCALAR)};
  // One shot is one ensemble: a file cut at a trace boundary has fewer traces than it says.
  if (file.tracesPerEnsemble() > 0 && file.tracesPerEnsemble() != file.traces())
    throw std::runtime_error(fmt::format("{}: {} traces, but the binary header says {} per "
                                         "ensemble (one shot): truncated or not one shot gather",
                                         path, file.traces(), file.tracesPerEnsemble()));
  g.values.resize(std::size_t(file.traces()) * g.samples);
  for (int r = 0; r < file.traces(); ++r) {
    const TraceHeader h = file.header(r);
    g.receivers.push_back({h.coordinate(SEGY_TR_GROUP_X, SEGY_TR_SOURCE_GROUP_SCALAR),
                           h.coordinate(SEGY_TR_GROUP_Y, SEGY_TR_SOURCE_GROUP_SCALAR),
                           -h.coordinate(SEGY_TR_RECV_GROUP_ELEV, SEGY_TR_ELEV_SCALAR)});
    file.readTrace(r, &g.values[std::size_t(r) * g.samples]);
  }
  return g;
}

void expectGatherSize(const ShotGather &g, const std::string &path, int receivers, int samples) {
  if (int(g.receivers.size()) != receivers || g.samples != samples)
    throw std::runtime_error(fmt::format("{}: {} traces of {} samples, expected {} of {}", path,
                                         g.receivers.size(), g.samples, receivers, samples));
}

} // namespace seisio
