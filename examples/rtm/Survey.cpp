//===- Survey.cpp - The user's velocity model and recorded shots ----------===//
#include "Survey.h"

#include "ModelFile.h"
#include "SegyFile.h"
#include "SegyModel.h"

#include "stencilc/io/Npy.h"

#include <segyio/segy.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rtm {

SurveyModel readSurveyModel(const std::string &path, double h, bool hGiven,
                            const std::optional<std::array<double, 3>> &origin) {
  // The name decides the format, as for `wave --model` (refused otherwise).
  wave::ModelFile file{path, {}, std::nullopt};
  bool segy = false;
  try {
    segy = wave::isSegyModelPath(path);
  } catch (const std::invalid_argument &) {
    throw std::invalid_argument(
        fmt::format("--model {}: expected a file named .npy, .segy or .sgy", path));
  }
  if (segy)
    file.geometry = seisio::readSegyModelGeometry(path);
  SurveyModel m;
  if (file.geometry) {
    if (origin)
      throw std::invalid_argument(
          fmt::format("--origin: {} is SEG-Y, whose trace headers give the model's origin", path));
    m.geometry = *file.geometry;
    m.geometry.dx = m.geometry.dy = m.geometry.dz = wave::spacingFor(file, h, hGiven);
    const seisio::Geometry &g = m.geometry;
    m.velocity = rt::Grid<float>::make3d(g.nx, g.ny, g.nz, 0);
    seisio::readSegyModel(path, g, rt::Box{0, 0, 0, g.nx, g.ny, g.nz}, m.velocity);
  } else {
    m.velocity = rt::readNpy<float>(path, 0);
    if (m.velocity.dims() != 3)
      throw std::runtime_error(fmt::format(
          "{}: a 2D array; expected a C-order float32 array of shape (nz, ny, nx)", path));
    seisio::Geometry &g = m.geometry;
    g.nx = m.velocity.nx();
    g.ny = m.velocity.ny();
    g.nz = m.velocity.nz();
    g.dx = g.dy = g.dz = h;
    if (origin) {
      g.x0 = (*origin)[0];
      g.y0 = (*origin)[1];
      g.z0 = (*origin)[2];
    }
  }
  const seisio::Geometry &g = m.geometry;
  // The first bad point in the file's order: (nz, ny, nx), x fastest.
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const float v = m.velocity(i, j, k);
        if (!(std::isfinite(v) && v > 0))
          throw std::runtime_error(fmt::format(
              "{}: velocity {} at point (i, j, k) = ({}, {}, {}), array index [{}, {}, {}], "
              "position ({:g}, {:g}, {:g}) m: a velocity must be finite and positive",
              path, v, i, j, k, k, j, i, g.x0 + i * g.dx, g.y0 + j * g.dy, g.z0 + k * g.dz));
      }
  return m;
}

namespace {

seisio::Position sourceOf(const seisio::TraceHeader &h) {
  return {h.coordinate(SEGY_TR_SOURCE_X, SEGY_TR_SOURCE_GROUP_SCALAR),
          h.coordinate(SEGY_TR_SOURCE_Y, SEGY_TR_SOURCE_GROUP_SCALAR),
          h.coordinate(SEGY_TR_SOURCE_DEPTH, SEGY_TR_ELEV_SCALAR)};
}

} // namespace

std::vector<RecordedShot> readShots(const std::vector<std::string> &files) {
  std::vector<RecordedShot> shots;
  for (const std::string &path : files) {
    const seisio::SegyReader file(path);
    int previousInterval = 0;
    for (int t = 0; t < file.traces(); ++t) {
      const seisio::TraceHeader h = file.header(t);
      const int interval =
          h.get(SEGY_TR_SAMPLE_INTER) ? h.get(SEGY_TR_SAMPLE_INTER) : file.interval();
      if (interval <= 0)
        throw std::runtime_error(
            fmt::format("{}: trace {}: sample interval {} µs (trace header and binary header)",
                        path, t + 1, interval));
      const seisio::Position source = sourceOf(h);
      const int number = h.get(SEGY_TR_FIELD_RECORD);
      const double delay = h.get(SEGY_TR_DELAY_REC_TIME) * 1e-3;
      const bool sameShot = t > 0 && number == shots.back().number &&
                            source.x == shots.back().source.x &&
                            source.y == shots.back().source.y && source.z == shots.back().source.z;
      if (sameShot && (interval != previousInterval || delay != shots.back().delay))
        throw std::runtime_error(fmt::format(
            "{}: trace {}: sample interval {} µs and delay {:g} s, but the shot's first trace "
            "(trace {}) has {} µs and {:g} s",
            path, t + 1, interval, delay, shots.back().firstTrace, previousInterval,
            shots.back().delay));
      if (!sameShot) {
        RecordedShot s;
        s.file = path;
        s.firstTrace = t + 1;
        s.number = number;
        s.source = source;
        s.samples = file.samples();
        s.dt = interval * 1e-6;
        s.delay = delay;
        shots.push_back(std::move(s));
        previousInterval = interval;
      }
      RecordedShot &s = shots.back();
      s.receivers.push_back({h.coordinate(SEGY_TR_GROUP_X, SEGY_TR_SOURCE_GROUP_SCALAR),
                             h.coordinate(SEGY_TR_GROUP_Y, SEGY_TR_SOURCE_GROUP_SCALAR),
                             -h.coordinate(SEGY_TR_RECV_GROUP_ELEV, SEGY_TR_ELEV_SCALAR)});
      const size_t offset = s.values.size();
      s.values.resize(offset + size_t(s.samples));
      file.readTrace(t, &s.values[offset]);
      for (int i = 0; i < s.samples; ++i)
        if (!std::isfinite(s.values[offset + size_t(i)]))
          throw std::runtime_error(fmt::format("{}: trace {}: sample {} is {}", path, t + 1, i,
                                               s.values[offset + size_t(i)]));
    }
  }
  return shots;
}

void checkInsideModel(const RecordedShot &shot, const seisio::Geometry &g) {
  // A position within a millionth of a cell of the extent is inside.
  auto inside = [&](const seisio::Position &p) {
    auto within = [](double v, double lo, double d, int n) {
      const double slack = 1e-6 * d;
      return v >= lo - slack && v <= lo + (n - 1) * d + slack;
    };
    return within(p.x, g.x0, g.dx, g.nx) && within(p.y, g.y0, g.dy, g.ny) &&
           within(p.z, g.z0, g.dz, g.nz);
  };
  auto refuse = [&](const std::string &what, const seisio::Position &p) {
    throw std::invalid_argument(fmt::format(
        "{}: shot {} (from trace {}): {} at ({:g}, {:g}, {:g}) m lies outside the model, which "
        "spans x [{:g}, {:g}], y [{:g}, {:g}], z [{:g}, {:g}] m",
        shot.file, shot.number, shot.firstTrace, what, p.x, p.y, p.z, g.x0,
        g.x0 + (g.nx - 1) * g.dx, g.y0, g.y0 + (g.ny - 1) * g.dy, g.z0, g.z0 + (g.nz - 1) * g.dz));
  };
  if (!inside(shot.source))
    refuse("the source", shot.source);
  for (size_t r = 0; r < shot.receivers.size(); ++r)
    if (!inside(shot.receivers[r]))
      refuse(fmt::format("receiver {} (trace {})", r + 1, shot.firstTrace + int(r)),
             shot.receivers[r]);
}

std::vector<float> resampleTrace(const float *values, int samples, double dtIn, double delay,
                                 double dt, int steps) {
  std::vector<float> out(size_t(std::max(steps, 0)), 0.0f);
  constexpr int kHalfWidth = 8; // input samples each side, at the input's own cut-off
  const double pi = 3.14159265358979323846;
  // The cut-off as a fraction of the input's Nyquist frequency.
  const double cut = std::min(1.0, dtIn / dt);
  const double reach = kHalfWidth / cut;
  for (int m = 1; m <= steps; ++m) {
    const double x = (m * dt - delay) / dtIn; // fractional input sample
    const double nearest = std::round(x);
    if (std::abs(x - nearest) < 1e-6 && cut == 1.0) {
      if (nearest >= 0 && nearest < samples)
        out[size_t(m - 1)] = values[size_t(nearest)];
      continue;
    }
    if (x < -reach || x > samples - 1 + reach)
      continue;
    double sum = 0;
    for (int s = std::max(0, int(std::ceil(x - reach)));
         s <= std::min(samples - 1, int(std::floor(x + reach))); ++s) {
      const double d = x - s;
      const double arg = pi * cut * d;
      const double sinc = std::abs(arg) < 1e-12 ? 1.0 : std::sin(arg) / arg;
      const double window = 0.5 * (1 + std::cos(pi * d / reach));
      sum += cut * sinc * window * values[size_t(s)];
    }
    out[size_t(m - 1)] = float(sum);
  }
  return out;
}

rt::Grid<float> smoothVelocity(const rt::Grid<float> &velocity, double cells) {
  rt::Grid<float> out = rt::Grid<float>::make3d(velocity.nx(), velocity.ny(), velocity.nz(), 0);
  velocity.forEachInteriorPoint([&](int i, int j, int k) { out(i, j, k) = velocity(i, j, k); });
  if (!(cells > 0))
    return out;
  const int reach = int(std::ceil(3 * cells));
  std::vector<double> weight(size_t(2 * reach + 1));
  double total = 0;
  for (int d = -reach; d <= reach; ++d)
    total += weight[size_t(d + reach)] = std::exp(-0.5 * d * d / (cells * cells));
  for (double &w : weight)
    w /= total;
  const int n[3] = {velocity.nx(), velocity.ny(), velocity.nz()};
  for (int axis = 0; axis < 3; ++axis) {
    const rt::Grid<float> in = out.clone();
    out.forEachInteriorPoint([&](int i, int j, int k) {
      double sum = 0;
      for (int d = -reach; d <= reach; ++d) {
        int p[3] = {i, j, k};
        p[axis] = std::clamp(p[axis] + d, 0, n[axis] - 1);
        sum += weight[size_t(d + reach)] * in(p[0], p[1], p[2]);
      }
      out(i, j, k) = float(sum);
    });
  }
  return out;
}

} // namespace rtm
