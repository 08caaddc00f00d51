//===- SegyFile.h - Checked access to SEG-Y files through segyio -----------===//
//
// segyio (Debian's libsegyio-dev) reads and writes the bytes; this layer
// checks a file before trusting it, so a truncated or foreign file is refused
// with the reason instead of yielding garbage, and writes a file whole or not
// at all. SEG-Y rev 1 layout: a 3200-byte text header, a 400-byte binary
// header, then traces of a 240-byte header and the samples, big-endian.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

struct segy_file_handle;

namespace seisio {

/// One 240-byte trace header; fields are named by segyio's SEGY_TR_* byte positions.
class TraceHeader {
public:
  TraceHeader() { bytes_.fill(0); }
  int32_t get(int field) const;
  void set(int field, int32_t value);
  /// A coordinate stored with the scalar at `scalarField` (SEG-Y: > 0
  /// multiplies, < 0 divides, 0 means 1).
  double coordinate(int field, int scalarField) const;
  char *data() { return bytes_.data(); }
  const char *data() const { return bytes_.data(); }

private:
  std::array<char, 240> bytes_;
};

/// A SEG-Y file open for reading whose headers and size have been checked:
/// samples in 4-byte IBM or IEEE floats, a whole number of traces.
class SegyReader {
public:
  /// Throws std::runtime_error "PATH: why" for a file that is missing,
  /// truncated, foreign or in a sample format other than 4-byte floats.
  explicit SegyReader(const std::string &path);
  ~SegyReader();
  SegyReader(const SegyReader &) = delete;
  SegyReader &operator=(const SegyReader &) = delete;

  const std::string &path() const { return path_; }
  int traces() const { return traces_; }
  int samples() const { return samples_; }
  /// The binary header's sample interval field, as stored (µs for time data).
  int interval() const { return interval_; }
  /// The binary header's data traces per ensemble (0 when not set).
  int tracesPerEnsemble() const { return tracesPerEnsemble_; }
  TraceHeader header(int trace) const;
  /// The samples of `trace` as native floats (`samples()` of them).
  void readTrace(int trace, float *out) const;

private:
  [[noreturn]] void fail(const std::string &why) const;

  std::string path_;
  segy_file_handle *file_ = nullptr;
  int traces_ = 0, samples_ = 0, interval_ = 0, format_ = 0, traceBytes_ = 0;
  int tracesPerEnsemble_ = 0;
  long trace0_ = 0;
};

/// Writes a SEG-Y rev 1 file of IEEE floats into PATH.part and renames it to
/// PATH on commit(); destroyed without commit() it removes PATH.part, so an
/// error leaves nothing behind.
class SegyWriter {
public:
  /// `interval` is the sample interval field (µs for time data), `traces`
  /// the traces per ensemble (the binary header's; 0 for none);
  /// `description` goes into the text header, one line per entry (at most 38).
  SegyWriter(const std::string &path, int samples, int interval, int traces,
             const std::vector<std::string> &description);
  ~SegyWriter();
  SegyWriter(const SegyWriter &) = delete;
  SegyWriter &operator=(const SegyWriter &) = delete;

  /// Writes trace `trace` (0-based); the header's sample count and interval are filled in.
  void writeTrace(int trace, TraceHeader header, const float *samples);
  void commit();

private:
  [[noreturn]] void fail(const std::string &why);

  std::string path_, partPath_;
  segy_file_handle *file_ = nullptr;
  int samples_, interval_, traceBytes_;
  bool committed_ = false;
};

/// The value SEG-Y stores for `metres` with scalar -100 (centimetres);
/// throws std::invalid_argument naming `what` when it does not fit 32 bits.
int32_t centimetres(double metres, const char *what);

} // namespace seisio
