//===- Wavelet.cpp - The source wavelet of a survey's migration ------------===//
#include "Wavelet.h"

#include "Survey.h"

#include "RunChecks.h"
#include "SegyFile.h"

#include <fmt/format.h>
#include <segyio/segy.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <stdexcept>

namespace rtm {

RecordedWavelet readWavelet(const std::string &path) {
  const seisio::SegyReader file(path);
  if (file.traces() != 1)
    throw std::runtime_error(
        fmt::format("{}: {} traces; a wavelet file holds one trace", path, file.traces()));
  const seisio::TraceHeader h = file.header(0);
  const int interval = h.get(SEGY_TR_SAMPLE_INTER) ? h.get(SEGY_TR_SAMPLE_INTER) : file.interval();
  if (interval <= 0)
    throw std::runtime_error(
        fmt::format("{}: sample interval {} µs (trace header and binary header)", path, interval));
  RecordedWavelet w;
  w.file = path;
  w.dt = interval * 1e-6;
  w.delay = h.get(SEGY_TR_DELAY_REC_TIME) * 1e-3;
  w.samples.resize(size_t(file.samples()));
  file.readTrace(0, w.samples.data());
  bool nonzero = false;
  for (size_t s = 0; s < w.samples.size(); ++s) {
    if (!std::isfinite(w.samples[s]))
      throw std::runtime_error(fmt::format("{}: sample {} is {}", path, s, w.samples[s]));
    nonzero |= w.samples[s] != 0;
  }
  if (!nonzero)
    throw std::runtime_error(fmt::format("{}: every sample is zero", path));
  return w;
}

std::vector<double> waveletAtSteps(const RecordedWavelet &w, double dt, int steps) {
  // resampleTrace gives the values at t = (m + 1) dt; a delay one step later
  // makes them the values at t = m dt.
  const std::vector<float> resampled =
      resampleTrace(w.samples.data(), int(w.samples.size()), w.dt, w.delay + dt, dt, steps);
  return {resampled.begin(), resampled.end()};
}

double bandEdge(const std::vector<float> &samples, double dt, double fraction) {
  // The spectrum at a resolution of at least 1/8 of the trace's own, zero
  // padded: a short wavelet's band edge falls between its own bins.
  const size_t n = samples.size();
  const size_t padded = std::max<size_t>(8 * n, 256);
  const size_t bins = padded / 2 + 1;
  std::vector<double> amplitude(bins);
  for (size_t f = 0; f < bins; ++f) {
    std::complex<double> sum = 0;
    const double w = -2 * M_PI * double(f) / double(padded);
    for (size_t s = 0; s < n; ++s)
      sum += double(samples[s]) * std::polar(1.0, w * double(s));
    amplitude[f] = std::abs(sum);
  }
  const double peak = *std::max_element(amplitude.begin(), amplitude.end());
  size_t edge = 0;
  for (size_t f = 0; f < bins; ++f)
    if (amplitude[f] >= fraction * peak)
      edge = f;
  return double(edge) / (double(padded) * dt);
}

void checkWaveletBand(const RecordedWavelet &wavelet, double vmin, double h, wave::Operator op) {
  const double top = bandEdge(wavelet.samples, wavelet.dt);
  const double points = vmin / top / h;
  const double needed = wave::minPointsPerWavelength(op);
  if (points >= needed)
    return;
  throw std::invalid_argument(fmt::format(
      "--wavelet {}: more than the grid resolves: its spectrum reaches {:.4g} Hz (3 % of its "
      "peak), a wavelength of {:.3g} m at the slowest velocity ({:.6g} m/s), {:.2f} points of "
      "h = {} m; the {} operator needs {:.2f} points per wavelength, so {:.4g} Hz at most here "
      "(or a finer grid); --allow-undersampled runs it anyway",
      wavelet.file, top, vmin / top, vmin, points, h, wave::operatorName(op), needed,
      vmin / (needed * h)));
}

} // namespace rtm
