//===- SegyGather.h - Shot gathers in SEG-Y --------------------------------===//
//
// A shot gather: one trace per receiver, samples in time. Each trace header
// carries the source and receiver positions (bytes 73-88, in centimetres,
// scalar -100 at byte 71), the source depth and receiver elevation (bytes 49
// and 41, scalar at byte 69), the offset (byte 37, metres), the shot number
// (bytes 9 and 17), the channel (byte 13) and the sample count and interval
// (bytes 115 and 117, µs). docs/SEISMIC.md §Files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace seisio {

struct Position {
  double x = 0, y = 0, z = 0; ///< metres, z depth (down)
};

struct ShotGather {
  int samples = 0;
  double dt = 0; ///< seconds
  int shot = 1;
  Position source;
  std::vector<Position> receivers;
  std::vector<float> values; ///< receiver-major: receiver r's sample t at r * samples + t

  float &at(int receiver, int sample) { return values[std::size_t(receiver) * samples + sample]; }
  float at(int receiver, int sample) const {
    return values[std::size_t(receiver) * samples + sample];
  }
};

/// Writes the gather. SEG-Y keeps the sample interval in whole microseconds:
/// dt is rounded to the nearest (the exact value belongs in the run's
/// geometry.json). Throws std::invalid_argument for a gather SEG-Y rev 1
/// cannot hold (more than 65535 samples, dt under 1 µs or over 65.535 ms,
/// coordinates beyond 32 bits of centimetres), std::runtime_error for an
/// unwritable path; nothing is left on disk then.
void writeSegyGather(const std::string &path, const ShotGather &gather);

/// Reads a gather written as above (or by other software with the same
/// fields). Throws std::runtime_error "PATH: why" for a truncated or foreign file.
ShotGather readSegyGather(const std::string &path);

/// Throws std::runtime_error naming both sizes unless `gather` has
/// `receivers` traces of `samples` samples.
void expectGatherSize(const ShotGather &gather, const std::string &path, int receivers,
                      int samples);

} // namespace seisio
