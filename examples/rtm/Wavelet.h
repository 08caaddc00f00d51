//===- Wavelet.h - The source wavelet of a survey's migration --------------===//
//
// `rtm --model` injects a Ricker wavelet of peak frequency --frequency, or the
// wavelet a user measured or designed, from `--wavelet FILE`: a SEG-Y file of
// one trace, whose sample interval (byte 117, µs; the binary header's where
// the trace's is 0) and delay (byte 109, ms) say when each sample is, as for
// the shots (Survey.h). Its samples are resampled to the propagation step as
// the shots' traces are, and are zero outside the trace.
//
// The grid must resolve what the wavelet holds: its band edge, the highest
// frequency where its amplitude spectrum is still 3 % of its peak (a Ricker's
// is 2.5 times its peak frequency, wave/RunChecks.h kRickerBandFactor), is
// what the points-per-wavelength refusal checks.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Propagator.h"

#include <string>
#include <vector>

namespace rtm {

/// A wavelet in time: sample s at t = delay + s dt (seconds).
struct RecordedWavelet {
  std::string file;
  std::vector<float> samples;
  double dt = 0, delay = 0;
};

/// Reads the one trace of `path`. Throws std::runtime_error "PATH: why" for
/// a missing or unreadable file, more or fewer than one trace, a sample
/// interval of zero, a NaN or infinite sample, or a trace of zeros.
RecordedWavelet readWavelet(const std::string &path);

/// The wavelet's value at t = m dt for m = 0 .. steps − 1 (entry m is what
/// the source adds after step m, as the Ricker's ricker(m dt) is).
std::vector<double> waveletAtSteps(const RecordedWavelet &wavelet, double dt, int steps);

/// The highest frequency (Hz) at which the amplitude spectrum of `samples`
/// (interval dt) is at least `fraction` of its largest value.
double bandEdge(const std::vector<float> &samples, double dt, double fraction = 0.03);

/// Refuses the wavelet of `wavelet.file` when its band edge has, at the
/// slowest velocity `vmin`, fewer points per wavelength on a grid of spacing
/// `h` than `op` needs (wave::minPointsPerWavelength), with the numbers.
void checkWaveletBand(const RecordedWavelet &wavelet, double vmin, double h, wave::Operator op);

} // namespace rtm
