//===- SegyFile.cpp -------------------------------------------------------===//
#include "SegyFile.h"

#include <segyio/segy.h>

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>

namespace seisio {

namespace {
constexpr long kHeadersBytes = SEGY_TEXT_HEADER_SIZE + SEGY_BINARY_HEADER_SIZE;

const char *formatName(int format) {
  switch (format) {
  case SEGY_SIGNED_INTEGER_4_BYTE: return "4-byte integers";
  case SEGY_SIGNED_SHORT_2_BYTE: return "2-byte integers";
  case SEGY_FIXED_POINT_WITH_GAIN_4_BYTE: return "fixed point with gain";
  case SEGY_SIGNED_CHAR_1_BYTE: return "1-byte integers";
  default: return nullptr;
  }
}
} // namespace

int32_t TraceHeader::get(int field) const {
  int32_t value = 0;
  if (segy_get_field(bytes_.data(), field, &value) != SEGY_OK)
    throw std::logic_error(fmt::format("no SEG-Y trace header field at byte {}", field));
  return value;
}

void TraceHeader::set(int field, int32_t value) {
  if (segy_set_field(bytes_.data(), field, value) != SEGY_OK)
    throw std::logic_error(fmt::format("no SEG-Y trace header field at byte {}", field));
}

double TraceHeader::coordinate(int field, int scalarField) const {
  const int scalar = get(scalarField);
  const double value = get(field);
  return scalar > 0 ? value * scalar : scalar < 0 ? value / -scalar : value;
}

int32_t centimetres(double metres, const char *what) {
  const double scaled = std::round(metres * 100);
  if (!(std::abs(scaled) <= std::numeric_limits<int32_t>::max()))
    throw std::invalid_argument(fmt::format(
        "{} {} m does not fit a SEG-Y coordinate (32 bits of centimetres)", what, metres));
  return int32_t(scaled);
}

// --- Reading -------------------------------------------------------------

SegyReader::SegyReader(const std::string &path) : path_(path) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (error)
    fail("cannot read: " + error.message());
  if (long(size) < kHeadersBytes)
    fail(fmt::format("not a SEG-Y file, or truncated: {} bytes, shorter than the {}-byte text "
                     "and binary headers",
                     size, kHeadersBytes));
  file_ = segy_open(path.c_str(), "rb");
  if (!file_)
    fail("cannot open");
  char binary[SEGY_BINARY_HEADER_SIZE];
  if (segy_binheader(file_, binary) != SEGY_OK)
    fail("cannot read the binary header");
  format_ = segy_format(binary);
  if (const char *name = formatName(format_))
    fail(fmt::format("samples are {} (format code {}); only 4-byte floats (IBM, code 1, or "
                     "IEEE, code 5) are read",
                     name, format_));
  if (format_ != SEGY_IBM_FLOAT_4_BYTE && format_ != SEGY_IEEE_FLOAT_4_BYTE)
    fail(fmt::format("not a SEG-Y file: binary header format code {} (bytes 3225-3226) is not "
                     "one SEG-Y defines (a little-endian SEG-Y file is not read either)",
                     format_));
  samples_ = segy_samples(binary);
  if (samples_ <= 0)
    fail(fmt::format("not a SEG-Y file: {} samples per trace in the binary header", samples_));
  int32_t interval = 0, extended = 0, perEnsemble = 0;
  segy_get_bfield(binary, SEGY_BIN_INTERVAL, &interval);
  segy_get_bfield(binary, SEGY_BIN_TRACES, &perEnsemble);
  tracesPerEnsemble_ = perEnsemble;
  segy_get_bfield(binary, SEGY_BIN_EXT_HEADERS, &extended);
  interval_ = interval;
  if (extended < 0)
    fail(fmt::format("not a SEG-Y file: {} extended text headers", extended));
  trace0_ = segy_trace0(binary);
  traceBytes_ = segy_trsize(format_, samples_);
  const long data = long(size) - trace0_;
  const long traceWithHeader = traceBytes_ + SEGY_TRACE_HEADER_SIZE;
  if (data < traceWithHeader)
    fail(fmt::format("no traces: {} bytes after the headers, a trace of {} samples takes {}",
                     std::max(0L, data), samples_, traceWithHeader));
  if (data % traceWithHeader != 0)
    fail(fmt::format("truncated, or not SEG-Y: the {} bytes after the headers are not a whole "
                     "number of {}-byte traces (240-byte header + {} samples x 4 bytes): {} "
                     "traces and {} bytes over",
                     data, traceWithHeader, samples_, data / traceWithHeader,
                     data % traceWithHeader));
  traces_ = int(data / traceWithHeader);
  if (segy_set_format(file_, format_) != SEGY_OK)
    fail("cannot set the sample format");
  const int first = header(0).get(SEGY_TR_SAMPLE_COUNT);
  if (first != 0 && first != samples_)
    fail(fmt::format("the first trace header says {} samples, the binary header {}", first,
                     samples_));
}

SegyReader::~SegyReader() {
  if (file_)
    segy_close(file_);
}

void SegyReader::fail(const std::string &why) const {
  throw std::runtime_error(path_ + ": " + why);
}

TraceHeader SegyReader::header(int trace) const {
  TraceHeader h;
  if (segy_traceheader(file_, trace, h.data(), trace0_, traceBytes_) != SEGY_OK)
    fail(fmt::format("cannot read the header of trace {}", trace + 1));
  return h;
}

void SegyReader::readTrace(int trace, float *out) const {
  if (segy_readtrace(file_, trace, out, trace0_, traceBytes_) != SEGY_OK)
    fail(fmt::format("cannot read trace {}", trace + 1));
  segy_to_native(format_, samples_, out);
}

// --- Writing -------------------------------------------------------------

SegyWriter::SegyWriter(const std::string &path, int samples, int interval, int traces,
                       const std::vector<std::string> &description)
    : path_(path), partPath_(path + ".part"), samples_(samples), interval_(interval),
      traceBytes_(segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, samples)) {
  // The binary header's counts are 16-bit (SEG-Y rev 1).
  if (samples < 1 || samples > 65535)
    throw std::invalid_argument(
        fmt::format("{}: {} samples per trace; SEG-Y rev 1 holds 1 to 65535", path, samples));
  if (interval < 1 || interval > 65535)
    throw std::invalid_argument(fmt::format(
        "{}: sample interval {} (µs or mm); SEG-Y rev 1 holds 1 to 65535", path, interval));
  if (description.size() > 38)
    throw std::logic_error("a SEG-Y text header has 40 lines");
  file_ = segy_open(partPath_.c_str(), "w+b");
  if (!file_)
    throw std::runtime_error(partPath_ + ": cannot create");
  // The text header: 40 card images of 80 characters, "C 1 ..." to "C40 END TEXTUAL HEADER".
  std::vector<std::string> lines = description;
  lines.insert(lines.begin(), "Written by Stencilc (docs/SEISMIC.md)");
  lines.resize(39);
  lines.push_back("SEG-Y REV1");
  std::string text;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    std::string card = fmt::format("C{:>2} {}", n + 1, lines[n]);
    card.resize(80, ' ');
    text += card;
  }
  if (segy_write_textheader(file_, 0, text.c_str()) != SEGY_OK)
    fail("cannot write the text header");
  char binary[SEGY_BINARY_HEADER_SIZE] = {};
  // A 16-bit field: a larger count is left unset rather than wrapped.
  segy_set_bfield(binary, SEGY_BIN_TRACES, traces > 0 && traces <= 32767 ? traces : 0);
  segy_set_bfield(binary, SEGY_BIN_INTERVAL, interval);
  segy_set_bfield(binary, SEGY_BIN_SAMPLES, samples);
  segy_set_bfield(binary, SEGY_BIN_FORMAT, SEGY_IEEE_FLOAT_4_BYTE);
  segy_set_bfield(binary, SEGY_BIN_SORTING_CODE, 1);       // as recorded
  segy_set_bfield(binary, SEGY_BIN_MEASUREMENT_SYSTEM, 1); // metres
  segy_set_bfield(binary, SEGY_BIN_SEGY_REVISION, 0x0100); // rev 1.0: IEEE floats allowed
  segy_set_bfield(binary, SEGY_BIN_TRACE_FLAG, 1);         // every trace has `samples`
  if (segy_write_binheader(file_, binary) != SEGY_OK)
    fail("cannot write the binary header");
  if (segy_set_format(file_, SEGY_IEEE_FLOAT_4_BYTE) != SEGY_OK)
    fail("cannot set the sample format");
}

SegyWriter::~SegyWriter() {
  if (file_)
    segy_close(file_);
  if (!committed_)
    std::remove(partPath_.c_str());
}

void SegyWriter::fail(const std::string &why) { throw std::runtime_error(partPath_ + ": " + why); }

void SegyWriter::writeTrace(int trace, TraceHeader header, const float *samples) {
  header.set(SEGY_TR_SAMPLE_COUNT, samples_);
  header.set(SEGY_TR_SAMPLE_INTER, interval_);
  if (segy_write_traceheader(file_, trace, header.data(), kHeadersBytes, traceBytes_) != SEGY_OK)
    fail(fmt::format("cannot write the header of trace {}", trace + 1));
  std::vector<float> bigEndian(samples, samples + samples_);
  segy_from_native(SEGY_IEEE_FLOAT_4_BYTE, samples_, bigEndian.data());
  if (segy_writetrace(file_, trace, bigEndian.data(), kHeadersBytes, traceBytes_) != SEGY_OK)
    fail(fmt::format("cannot write trace {}", trace + 1));
}

void SegyWriter::commit() {
  const int closed = segy_close(file_);
  file_ = nullptr;
  if (closed != SEGY_OK)
    fail("write failed");
  std::error_code error;
  std::filesystem::rename(partPath_, path_, error);
  if (error)
    throw std::runtime_error(path_ + ": cannot write: " + error.message());
  committed_ = true;
}

} // namespace seisio
