//===- Npy.h - Grid interiors as NumPy .npy files --------------------------===//
//
// So that a wavefield or snapshot can be opened with numpy.load for plotting
// and checking. Format version 1.0 (numpy/lib/format.py):
//
//   "\x93NUMPY" 0x01 0x00 <uint16 LE header length> <header>
//
// where the header is a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (5, 7, 13), }
// padded with spaces and ended by '\n' so that the data starts at a multiple
// of 64 bytes. The data is the interior in C order: shape (nz, ny, nx) in 3D,
// (ny, nx) in 2D.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"
#include "stencilc/io/RawIO.h"

#include <cctype>
#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace stencilc::rt {

/// numpy's dtype string for the element types grids hold.
template <typename T> constexpr const char *npyDescr() {
  if constexpr (std::is_same_v<T, float>)
    return "<f4";
  else if constexpr (std::is_same_v<T, double>)
    return "<f8";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "|u1"; // '|': byte order does not apply to one byte
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "<u2";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "<i4";
  else
    static_assert(sizeof(T) == 0, "no .npy dtype for this element type");
}

struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// Everything before the data: magic, version 1.0, length, padded dict.
inline std::string formatNpyHeader(const std::string &descr, const std::vector<int64_t> &shape) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (";
  for (std::size_t n = 0; n < shape.size(); ++n)
    dict += (n ? ", " : "") + std::to_string(shape[n]);
  dict += shape.size() == 1 ? ",), }" : "), }";    // a 1-tuple needs its comma in Python
  constexpr std::size_t kPreamble = 10;            // magic (6) + version (2) + length (2)
  constexpr std::size_t kAlign = 64;               // numpy's ARRAY_ALIGN
  std::size_t total = kPreamble + dict.size() + 1; // + the terminating '\n'
  std::size_t padded = (total + kAlign - 1) / kAlign * kAlign;
  dict.append(padded - total, ' ');
  dict += '\n';
  if (dict.size() > 0xffff)
    throw std::length_error("npy header does not fit format version 1.0");

  std::string header("\x93NUMPY\x01\x00", 8);
  header += char(dict.size() & 0xff);
  header += char(dict.size() >> 8);
  return header + dict;
}

namespace detail {

/// A reader for the one dict literal numpy writes; not a Python parser.
class NpyDictParser {
public:
  explicit NpyDictParser(std::string text) : text_(std::move(text)) {}

  NpyHeader parse() {
    NpyHeader header;
    bool sawDescr = false, sawOrder = false, sawShape = false;
    expect('{');
    while (!peekIs('}')) {
      std::string key = quoted();
      expect(':');
      if (key == "descr") {
        header.descr = quoted();
        sawDescr = true;
      } else if (key == "fortran_order") {
        header.fortranOrder = boolean();
        sawOrder = true;
      } else if (key == "shape") {
        header.shape = tuple();
        sawShape = true;
      } else {
        fail("unexpected key '" + key + "'");
      }
      if (!peekIs(','))
        break;
      expect(',');
    }
    expect('}');
    if (!sawDescr || !sawOrder || !sawShape)
      fail("needs the keys descr, fortran_order and shape");
    return header;
  }

private:
  [[noreturn]] void fail(const std::string &why) const {
    throw std::runtime_error("bad .npy header: " + why);
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool peekIs(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  void expect(char c) {
    if (!peekIs(c))
      fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string quoted() {
    skipSpace();
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
      fail("expected a string");
    char quote = text_[pos_++];
    std::size_t end = text_.find(quote, pos_);
    if (end == std::string::npos)
      fail("unterminated string");
    std::string s = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    return s;
  }
  bool boolean() {
    skipSpace();
    for (const char *word : {"True", "False"})
      if (text_.compare(pos_, std::char_traits<char>::length(word), word) == 0) {
        pos_ += std::char_traits<char>::length(word);
        return word[0] == 'T';
      }
    fail("expected True or False");
  }
  std::vector<int64_t> tuple() {
    std::vector<int64_t> values;
    expect('(');
    while (!peekIs(')')) {
      skipSpace();
      std::size_t start = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      if (pos_ == start)
        fail("expected a dimension");
      values.push_back(std::stoll(text_.substr(start, pos_ - start)));
      if (!peekIs(','))
        break;
      expect(',');
    }
    expect(')');
    return values;
  }

  std::string text_;
  std::size_t pos_ = 0;
};

inline uint32_t readLittleEndian(std::istream &is, int bytes) {
  uint32_t value = 0;
  for (int n = 0; n < bytes; ++n) {
    int c = is.get();
    if (c == EOF)
      throw std::runtime_error("bad .npy header: truncated");
    value |= uint32_t(c) << (8 * n);
  }
  return value;
}

} // namespace detail

/// Reads magic, version and dict; leaves `is` at the first data byte.
/// Versions 2.0 and 3.0 (4-byte header length) are accepted too.
inline NpyHeader parseNpyHeader(std::istream &is) {
  char magic[6];
  if (!is.read(magic, 6) || std::string(magic, 6) != std::string("\x93NUMPY", 6))
    throw std::runtime_error("not a .npy file (bad magic)");
  int major = is.get(), minor = is.get();
  if (major < 1 || major > 3 || minor != 0)
    throw std::runtime_error("unsupported .npy version " + std::to_string(major) + "." +
                             std::to_string(minor));
  uint32_t length = detail::readLittleEndian(is, major == 1 ? 2 : 4);
  std::string dict(length, '\0');
  if (!is.read(dict.data(), std::streamsize(length)))
    throw std::runtime_error("bad .npy header: truncated");
  return detail::NpyDictParser(std::move(dict)).parse();
}

/// The shape numpy sees for the interior of `grid`.
template <typename T> std::vector<int64_t> npyShapeOf(const Grid<T> &grid) {
  if (grid.dims() == 2)
    return {grid.ny(), grid.nx()};
  return {grid.nz(), grid.ny(), grid.nx()};
}

/// Writes the interior of `grid` as a .npy file.
template <typename T> void writeNpy(const Grid<T> &grid, const std::string &path) {
  std::ofstream os = detail::openForWriting(path);
  os << formatNpyHeader(npyDescr<T>(), npyShapeOf(grid));
  detail::writeInterior(grid, os);
  if (!os.flush())
    throw std::runtime_error(path + ": write failed");
}

/// Fills the interior of `grid` from a .npy file whose dtype and shape must
/// match it exactly; the halo is left as it was.
template <typename T> void readNpyInto(Grid<T> &grid, const std::string &path) {
  std::ifstream is = detail::openForReading(path);
  NpyHeader header;
  try {
    header = parseNpyHeader(is);
  } catch (const std::runtime_error &e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  if (header.descr != npyDescr<T>())
    throw std::runtime_error(path + ": dtype '" + header.descr + "', expected '" + npyDescr<T>() +
                             "'");
  if (header.fortranOrder)
    throw std::runtime_error(path + ": a Fortran-order array (its first axis fastest); arrays "
                                    "here are C-order, (nz, ny, nx) with x, the last, fastest: "
                                    "numpy.ascontiguousarray makes one");
  if (header.shape != npyShapeOf(grid))
    throw std::runtime_error(path + ": shape does not match the grid's interior");
  if (!detail::readInterior(grid, is))
    throw std::runtime_error(path + ": data truncated");
}

/// A new grid with the given halo (zero-filled) whose interior is the
/// file's array: rank 2 gives a 2D grid, rank 3 a 3D grid.
template <typename T> Grid<T> readNpy(const std::string &path, int halo) {
  NpyHeader header;
  {
    std::ifstream is = detail::openForReading(path);
    try {
      header = parseNpyHeader(is);
    } catch (const std::runtime_error &e) {
      throw std::runtime_error(path + ": " + e.what());
    }
  }
  const auto &s = header.shape;
  for (int64_t extent : s)
    if (extent < 1 || extent > INT32_MAX)
      throw std::runtime_error(path + ": unsupported extent " + std::to_string(extent));
  Grid<T> grid;
  if (s.size() == 2)
    grid = Grid<T>::make2d(int(s[1]), int(s[0]), halo);
  else if (s.size() == 3)
    grid = Grid<T>::make3d(int(s[2]), int(s[1]), int(s[0]), halo);
  else
    throw std::runtime_error(path + ": a grid needs a rank-2 or rank-3 array");
  readNpyInto(grid, path);
  return grid;
}

} // namespace stencilc::rt
