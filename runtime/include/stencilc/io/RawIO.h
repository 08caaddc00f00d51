//===- RawIO.h - Grid interiors as raw little-endian binary ----------------===//
//
// The simplest interchange format: the interior of a grid, z-plane by
// z-plane, row by row, x fastest (C order of shape (nz, ny, nx)),
// little-endian, no header. Halo and padding are not written: they are a
// property of the kernel's memory layout, not of the data.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace stencilc::rt {

namespace detail {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian machines are not supported");

/// Reverses the bytes of each element when the machine is big-endian, so
/// that the buffer holds little-endian data (the conversion is its own inverse).
template <typename T> void toOrFromLittleEndian(T *values, std::size_t count) {
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    for (std::size_t n = 0; n < count; ++n) {
      unsigned char bytes[sizeof(T)];
      std::memcpy(bytes, &values[n], sizeof(T));
      std::reverse(bytes, bytes + sizeof(T));
      std::memcpy(&values[n], bytes, sizeof(T));
    }
  } else {
    (void)values;
    (void)count;
  }
}

/// Writes the interior rows of `grid` little-endian.
template <typename T> void writeInterior(const Grid<T> &grid, std::ostream &os) {
  std::vector<T> row(std::size_t(grid.nx()));
  for (int k = 0; k < grid.nz(); ++k)
    for (int j = 0; j < grid.ny(); ++j) {
      std::copy(&grid(0, j, k), &grid(0, j, k) + grid.nx(), row.begin());
      toOrFromLittleEndian(row.data(), row.size());
      os.write(reinterpret_cast<const char *>(row.data()), std::streamsize(row.size() * sizeof(T)));
    }
}

/// Reads little-endian interior rows into `grid`; false if the stream ran out.
template <typename T> bool readInterior(Grid<T> &grid, std::istream &is) {
  std::vector<T> row(std::size_t(grid.nx()));
  for (int k = 0; k < grid.nz(); ++k)
    for (int j = 0; j < grid.ny(); ++j) {
      is.read(reinterpret_cast<char *>(row.data()), std::streamsize(row.size() * sizeof(T)));
      if (!is)
        return false;
      toOrFromLittleEndian(row.data(), row.size());
      std::copy(row.begin(), row.end(), &grid(0, j, k));
    }
  return true;
}

inline std::ofstream openForWriting(const std::string &path) {
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  if (!os)
    throw std::runtime_error(path + ": cannot open for writing");
  return os;
}

inline std::ifstream openForReading(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  if (!is)
    throw std::runtime_error(path + ": cannot open for reading");
  return is;
}

} // namespace detail

/// Writes the interior of `grid` to `path` (nx*ny*nz elements, C order, little-endian).
template <typename T> void writeRaw(const Grid<T> &grid, const std::string &path) {
  std::ofstream os = detail::openForWriting(path);
  detail::writeInterior(grid, os);
  if (!os.flush())
    throw std::runtime_error(path + ": write failed");
}

/// Fills the interior of `grid` from `path`, which must hold exactly
/// nx*ny*nz elements; the halo is left as it was.
template <typename T> void readRaw(Grid<T> &grid, const std::string &path) {
  std::ifstream is = detail::openForReading(path);
  is.seekg(0, std::ios::end);
  const auto bytes = std::size_t(is.tellg());
  is.seekg(0, std::ios::beg);
  const std::size_t expected =
      std::size_t(grid.nx()) * std::size_t(grid.ny()) * std::size_t(grid.nz()) * sizeof(T);
  if (bytes != expected)
    throw std::runtime_error(path + ": holds " + std::to_string(bytes) + " bytes, the grid's " +
                             "interior needs " + std::to_string(expected));
  if (!detail::readInterior(grid, is))
    throw std::runtime_error(path + ": read failed");
}

} // namespace stencilc::rt
