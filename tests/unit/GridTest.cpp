//===- GridTest.cpp - Runtime grids, index arrays, tables and file I/O ----===//
#include "stencilc/Grid.h"
#include "stencilc/CoefficientTable.h"
#include "stencilc/IndexArray.h"
#include "stencilc/io/Npy.h"
#include "stencilc/io/RawIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace stencilc::rt;

namespace {

bool isCacheLineAligned(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p) % kCacheLineBytes == 0;
}

/// Checks the layout of docs/DESIGN.md §Runtime [4] on every row of interior and halo.
template <typename T> void expectAlignedLayout(const Grid<T> &g) {
  EXPECT_EQ(g.lineStride() * sizeof(T) % kCacheLineBytes, 0u);
  EXPECT_GE(g.lineStride(), g.nx() + 2 * g.halo());
  EXPECT_GE(g.planeStride(), g.lineStride() * (g.ny() + 2 * g.halo()));
  EXPECT_EQ(g.planeStride() * sizeof(T) % kCacheLineBytes, 0u);
  for (int k = -g.haloZ(); k < g.nz() + g.haloZ(); ++k)
    for (int j = -g.halo(); j < g.ny() + g.halo(); ++j)
      EXPECT_TRUE(isCacheLineAligned(&g(0, j, k))) << "row j=" << j << " k=" << k;
  // The whole halo-inclusive box lies inside the allocation.
  const T *first = &g(-g.halo(), -g.halo(), -g.haloZ());
  const T *last = &g(g.nx() + g.halo() - 1, g.ny() + g.halo() - 1, g.nz() + g.haloZ() - 1);
  EXPECT_GE(first, g.storage());
  EXPECT_LT(last, g.storage() + g.storageElements());
}

/// A file in the test's temporary directory, removed at the end of the scope.
struct TempFile {
  explicit TempFile(const std::string &name)
      : path((std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~TempFile() { std::filesystem::remove(path); }
  std::string path;
};

std::string readAll(const std::string &path) {
  std::ifstream is(path, std::ios::binary);
  std::stringstream ss;
  ss << is.rdbuf();
  return ss.str();
}

} // namespace

TEST(GridTest, EveryRowOfAnOddSizedGridIsAligned) {
  for (int halo : {0, 1, 4, 8, 17}) {
    SCOPED_TRACE("halo " + std::to_string(halo));
    expectAlignedLayout(Grid<float>::make3d(13, 7, 5, halo));
    expectAlignedLayout(Grid<double>::make3d(13, 7, 5, halo));
    expectAlignedLayout(Grid<uint8_t>::make3d(13, 7, 5, halo));
    expectAlignedLayout(Grid<uint16_t>::make3d(13, 7, 5, halo));
    expectAlignedLayout(Grid<float>::make2d(13, 7, halo));
    expectAlignedLayout(Grid<double>::make2d(1, 1, halo));
  }
}

TEST(GridTest, PaddingAndOffsetAlignInterior) {
  // nx + 2R = 13 + 8 = 21 floats round up to 32 (two cache lines); the base
  // is offset by align - R so interior x = 0 is on a line boundary.
  Grid<float> g = Grid<float>::make3d(13, 7, 5, 4);
  EXPECT_EQ(g.lineStride(), 32);
  EXPECT_EQ(g.planeStride(), 32 * 15);
  EXPECT_EQ(&g(0, 0, 0) - g.storage(), 16 + 32 * 4 + 32 * 15 * 4);
  Grid<double> d = Grid<double>::make2d(13, 7, 4);
  EXPECT_EQ(d.lineStride(), 24);
  EXPECT_EQ(d.haloZ(), 0);
}

/// True if the 9 rows (or planes) d = -4..4 strides apart around one point
/// fall in 9 different sets of a 64-set L1 (4 KiB a way).
bool nineApartInDifferentSets(std::ptrdiff_t strideBytes) {
  for (std::ptrdiff_t d = 1; d <= 8; ++d)
    if (d * strideBytes % 4096 == 0)
      return false;
  return true;
}

TEST(GridTest, RowsAndPlanesAroundAPointFallInDifferentL1Sets) {
  // 216^3 + 2 x 4: a plane of 224 x 224 floats is 49 x 4 KiB unpadded; 120 + 8
  // floats is a row of 8 cache lines, 1016 + 8 one of 4 KiB.
  for (GridShape shape : {GridShape{3, 216, 216, 216, 4}, GridShape{3, 120, 120, 120, 4},
                          GridShape{3, 1016, 24, 16, 4}, GridShape{3, 248, 256, 64, 4}}) {
    const GridLayout f = GridLayout::of<float>(shape), d = GridLayout::of<double>(shape);
    EXPECT_TRUE(nineApartInDifferentSets(f.line * 4)) << shape.nx;
    EXPECT_TRUE(nineApartInDifferentSets(f.plane * 4)) << shape.nx;
    EXPECT_TRUE(nineApartInDifferentSets(d.line * 8)) << shape.nx;
    EXPECT_TRUE(nineApartInDifferentSets(d.plane * 8)) << shape.nx;
    // At most one cache line of padding per row and per plane.
    EXPECT_LE(f.line * 4, (shape.nx + 8 + 15) / 16 * 64 + 64);
    EXPECT_LE(f.plane, f.line * (shape.ny + 8) + 16);
  }
  // The layout a grid allocates is GridLayout's.
  const GridShape small{3, 5, 4, 3, 2}; // a plane of 8 lines: padded to 9
  Grid<float> g(small);
  EXPECT_EQ(g.planeStride(), GridLayout::of<float>(small).plane);
  EXPECT_EQ(g.planeStride(), 9 * 16);
  EXPECT_EQ(g.storageElements(), GridLayout::of<float>(small).elements);
}

TEST(AlignedBufferTest, SmallBuffersAlignToALineLargeOnesToAHugePage) {
  AlignedBuffer<float> small(100);
  EXPECT_TRUE(isCacheLineAligned(small.data()));
  // From 2 MiB up: aligned for huge pages (whether the system grants them is its choice).
  const std::size_t count = kHugePageBytes / sizeof(double) + 3;
  AlignedBuffer<double> large(count);
  ASSERT_EQ(large.size(), count);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(large.data()) % kHugePageBytes, 0u);
  large[0] = 1.0;
  large[count - 1] = 2.0; // the whole range is ours
  EXPECT_EQ(large[0] + large[count - 1], 3.0);
  AlignedBuffer<double> moved = std::move(large);
  EXPECT_EQ(moved[count - 1], 2.0);
}

TEST(GridTest, HaloAccessorsReachEveryNeighbour) {
  Grid<double> g = Grid<double>::make3d(6, 5, 4, 3);
  // A value that identifies its point, so that any aliasing of two points shows.
  g.fillWith([](int i, int j, int k) { return 10000.0 * k + 100.0 * j + i; });
  g.forEachPointWithHalo([&](int i, int j, int k) {
    EXPECT_EQ(g(i, j, k), 10000.0 * k + 100.0 * j + i);
    EXPECT_EQ(g.origin()[g.offsetOf(i, j, k)], g(i, j, k));
  });
  EXPECT_EQ(g.at(-3, -3, -3), -30303.0);
  EXPECT_EQ(g.at(8, 7, 6), 60708.0);
  EXPECT_THROW(g.at(-4, 0, 0), std::out_of_range);
  EXPECT_THROW(g.at(0, 8, 0), std::out_of_range);
  EXPECT_THROW(g.at(0, 0, 7), std::out_of_range);

  Grid<float> flat = Grid<float>::make2d(6, 5, 2);
  EXPECT_NO_THROW(flat.at(-2, -2));
  EXPECT_THROW(flat.at(0, 0, 1), std::out_of_range); // no z halo in 2D
}

TEST(GridTest, AllocationIsZeroedAndFillsCoverTheHalo) {
  Grid<float> g = Grid<float>::make3d(5, 4, 3, 2);
  for (std::size_t n = 0; n < g.storageElements(); ++n)
    ASSERT_EQ(g.storage()[n], 0.0f);

  g.fill(2.5f);
  g.forEachPointWithHalo([&](int i, int j, int k) { EXPECT_EQ(g(i, j, k), 2.5f); });

  g.poison();
  g.forEachPointWithHalo([&](int i, int j, int k) { EXPECT_TRUE(std::isnan(g(i, j, k))); });
}

TEST(GridTest, RandomFillIsReproducibleAndInRange) {
  Grid<double> a = Grid<double>::make3d(7, 3, 2, 1), b = Grid<double>::make3d(7, 3, 2, 1);
  a.fillRandom(42, -1.0, 1.0);
  b.fillRandom(42, -1.0, 1.0);
  double minSeen = 1, maxSeen = -1;
  a.forEachPointWithHalo([&](int i, int j, int k) {
    EXPECT_EQ(a(i, j, k), b(i, j, k));
    minSeen = std::min(minSeen, a(i, j, k));
    maxSeen = std::max(maxSeen, a(i, j, k));
  });
  EXPECT_GE(minSeen, -1.0);
  EXPECT_LT(maxSeen, 1.0);
  EXPECT_LT(minSeen, -0.5); // 315 draws: values spread over the range
  EXPECT_GT(maxSeen, 0.5);

  b.fillRandom(43, -1.0, 1.0);
  EXPECT_NE(a(0, 0, 0), b(0, 0, 0));
}

TEST(GridTest, IndexArraysHoldColumnsInRange) {
  IndexArray<uint8_t> idx8 = IndexArray<uint8_t>::make3d(9, 4, 3, 4);
  idx8.fillRandom(7, 0, 200);
  IndexArray<uint16_t> idx16 = IndexArray<uint16_t>::make3d(9, 4, 3, 4);
  idx16.fillRandom(7, 0, 902); // the papers' number of velocity values
  bool sawHigh = false;
  idx16.forEachPointWithHalo([&](int i, int j, int k) {
    EXPECT_LT(idx8(i, j, k), 200);
    EXPECT_LT(idx16(i, j, k), 902);
    sawHigh |= idx16(i, j, k) >= 800;
  });
  EXPECT_TRUE(sawHigh);
  expectAlignedLayout(idx16);
}

TEST(GridTest, ConvertGridKeepsShapeAndValues) {
  Grid<double> d = Grid<double>::make3d(5, 4, 3, 2);
  d.fillRandom(3, -2.0, 2.0);
  Grid<float> f = convertGrid<float>(d);
  EXPECT_EQ(f.shape(), d.shape());
  d.forEachPointWithHalo(
      [&](int i, int j, int k) { EXPECT_EQ(f(i, j, k), static_cast<float>(d(i, j, k))); });
}

TEST(CoefficientTableTest, LayoutsPlaceElementsAsDocumented) {
  CoefficientTable<float> rowMajor(3, 5, TableLayout::RowMajor);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      rowMajor(r, c) = float(10 * r + c);
  // [row][idx]: a row is contiguous.
  EXPECT_EQ(rowMajor.data()[1 * 5 + 3], 13.0f);
  EXPECT_EQ(rowMajor.rowStride(), 5);
  EXPECT_EQ(rowMajor.colStride(), 1);

  // [idx][row]: the rows of one column are contiguous.
  CoefficientTable<float> colMajor = rowMajor.withLayout(TableLayout::ColumnMajor);
  EXPECT_EQ(colMajor.data()[3 * 3 + 1], 13.0f);
  EXPECT_EQ(colMajor.rowStride(), 1);
  EXPECT_EQ(colMajor.colStride(), 3);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 5; ++c)
      EXPECT_EQ(colMajor.at(r, c), rowMajor.at(r, c));

  EXPECT_THROW(rowMajor.at(3, 0), std::out_of_range);
  EXPECT_THROW(colMajor.at(0, 5), std::out_of_range);
  EXPECT_TRUE(isCacheLineAligned(colMajor.data()));
}

TEST(CoefficientTableTest, RandomFillIsTheSameMatrixInBothLayouts) {
  CoefficientTable<double> a(4, 6, TableLayout::RowMajor), b(4, 6, TableLayout::ColumnMajor);
  a.fillRandom(11, 0.0, 1.0);
  b.fillRandom(11, 0.0, 1.0);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 6; ++c)
      EXPECT_EQ(a(r, c), b(r, c));
}

TEST(NpyTest, HeaderIsWhatNumpyWrites) {
  std::string header = formatNpyHeader("<f4", {5, 7, 13});
  ASSERT_GE(header.size(), 10u);
  EXPECT_EQ(header.substr(0, 6), std::string("\x93NUMPY", 6));
  EXPECT_EQ(header[6], '\x01'); // version 1.0
  EXPECT_EQ(header[7], '\x00');
  std::size_t dictLength = uint8_t(header[8]) | (std::size_t(uint8_t(header[9])) << 8);
  EXPECT_EQ(10 + dictLength, header.size());
  EXPECT_EQ(header.size() % 64, 0u); // numpy aligns the data to 64 bytes
  std::string dict = header.substr(10);
  // numpy.lib.format writes exactly this dict, then spaces and one newline.
  const std::string expected = "{'descr': '<f4', 'fortran_order': False, 'shape': (5, 7, 13), }";
  EXPECT_EQ(dict.substr(0, expected.size()), expected);
  EXPECT_EQ(dict.back(), '\n');
  EXPECT_EQ(dict.find_first_not_of(' ', expected.size()), dict.size() - 1);

  std::istringstream is(header);
  NpyHeader parsed = parseNpyHeader(is);
  EXPECT_EQ(parsed.descr, "<f4");
  EXPECT_FALSE(parsed.fortranOrder);
  EXPECT_EQ(parsed.shape, (std::vector<int64_t>{5, 7, 13}));
  EXPECT_EQ(std::size_t(is.tellg()), header.size());
}

TEST(NpyTest, ParsesNumpysOwnHeaderAndRejectsGarbage) {
  // numpy's header for np.zeros((2, 3), '<i4'), padded to 128 bytes (newer numpy pads
  // with more spaces, which only moves the newline).
  std::string dict = "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }";
  dict.append(128 - 10 - dict.size() - 1, ' ');
  dict += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(dict.size()) + '\0' + dict;
  std::istringstream is(bytes);
  NpyHeader parsed = parseNpyHeader(is);
  EXPECT_EQ(parsed.descr, "<i4");
  EXPECT_EQ(parsed.shape, (std::vector<int64_t>{2, 3}));

  std::istringstream notNpy("PK\x03\x04 a zip file");
  EXPECT_THROW(parseNpyHeader(notNpy), std::runtime_error);
  std::string badDict = std::string("\x93NUMPY\x01\x00", 8) + char(10) + '\0' + "{'descr': ";
  std::istringstream truncated(badDict);
  EXPECT_THROW(parseNpyHeader(truncated), std::runtime_error);
}

template <typename T> void expectNpyRoundTrip(Grid<T> &original, const std::string &descr) {
  TempFile file("grid_" + descr.substr(1) + ".npy");
  writeNpy(original, file.path);

  std::string bytes = readAll(file.path);
  std::size_t elements = std::size_t(original.nx()) * original.ny() * original.nz();
  ASSERT_EQ(bytes.size() % 64, elements * sizeof(T) % 64); // header is whole cache lines
  std::istringstream is(bytes);
  EXPECT_EQ(parseNpyHeader(is).descr, descr);
  EXPECT_EQ(bytes.size() - std::size_t(is.tellg()), elements * sizeof(T));

  Grid<T> loaded = readNpy<T>(file.path, original.halo() + 1);
  EXPECT_EQ(loaded.dims(), original.dims());
  EXPECT_EQ(loaded.nx(), original.nx());
  EXPECT_EQ(loaded.ny(), original.ny());
  EXPECT_EQ(loaded.nz(), original.nz());
  original.forEachInteriorPoint(
      [&](int i, int j, int k) { EXPECT_EQ(loaded(i, j, k), original(i, j, k)); });
}

TEST(NpyTest, RoundTripsEveryElementType) {
  Grid<float> f = Grid<float>::make3d(13, 7, 5, 4);
  f.fillRandom(1, -1.0f, 1.0f);
  expectNpyRoundTrip(f, "<f4");
  Grid<double> d = Grid<double>::make2d(13, 7, 2);
  d.fillRandom(2, -1.0, 1.0);
  expectNpyRoundTrip(d, "<f8");
  Grid<uint8_t> u8 = Grid<uint8_t>::make3d(3, 4, 5, 1);
  u8.fillRandom(3, 0, 255);
  expectNpyRoundTrip(u8, "|u1");
  Grid<uint16_t> u16 = Grid<uint16_t>::make3d(3, 4, 5, 1);
  u16.fillRandom(4, 0, 60000);
  expectNpyRoundTrip(u16, "<u2");
  Grid<int32_t> i32 = Grid<int32_t>::make3d(3, 4, 5, 0);
  i32.fillRandom(5, -100000, 100000);
  expectNpyRoundTrip(i32, "<i4");
}

TEST(NpyTest, RejectsMismatchedTypeOrShape) {
  Grid<float> f = Grid<float>::make3d(4, 3, 2, 1);
  TempFile file("mismatch.npy");
  writeNpy(f, file.path);
  Grid<double> wrongType = Grid<double>::make3d(4, 3, 2, 1);
  EXPECT_THROW(readNpyInto(wrongType, file.path), std::runtime_error);
  Grid<float> wrongShape = Grid<float>::make3d(3, 4, 2, 1);
  EXPECT_THROW(readNpyInto(wrongShape, file.path), std::runtime_error);
  EXPECT_THROW(readNpy<float>(file.path + ".missing", 0), std::runtime_error);
}

TEST(NpyTest, RefusesFortranOrderNamingBothOrders) {
  // numpy.save of a Fortran-order (nx, ny, nz) array: its header says so.
  Grid<float> f = Grid<float>::make3d(4, 3, 2, 0);
  TempFile file("fortran.npy");
  writeNpy(f, file.path);
  std::string bytes = readAll(file.path);
  const size_t at = bytes.find("'fortran_order': False");
  ASSERT_NE(at, std::string::npos);
  bytes.replace(at, 22, "'fortran_order': True ");
  std::ofstream(file.path, std::ios::binary) << bytes;
  try {
    readNpy<float>(file.path, 0);
    FAIL() << "a Fortran-order array was read";
  } catch (const std::runtime_error &e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("a Fortran-order array (its first axis fastest)"), std::string::npos)
        << message;
    EXPECT_NE(message.find("C-order, (nz, ny, nx) with x, the last, fastest"), std::string::npos)
        << message;
  }
}

TEST(RawIOTest, RoundTripsTheInteriorOnly) {
  Grid<double> g = Grid<double>::make3d(5, 3, 2, 2);
  g.fillRandom(9, -1.0, 1.0);
  TempFile file("grid.raw");
  writeRaw(g, file.path);
  EXPECT_EQ(std::filesystem::file_size(file.path), 5u * 3 * 2 * sizeof(double));
  // The file is C order, x fastest: element (i, j, k) at (k * ny + j) * nx + i.
  std::string bytes = readAll(file.path);
  double second;
  std::memcpy(&second, bytes.data() + ((1 * 3 + 2) * 5 + 4) * sizeof(double), sizeof(double));
  EXPECT_EQ(second, g(4, 2, 1));

  Grid<double> loaded = Grid<double>::make3d(5, 3, 2, 0);
  readRaw(loaded, file.path);
  g.forEachInteriorPoint([&](int i, int j, int k) { EXPECT_EQ(loaded(i, j, k), g(i, j, k)); });

  Grid<double> tooBig = Grid<double>::make3d(5, 3, 3, 0);
  EXPECT_THROW(readRaw(tooBig, file.path), std::runtime_error);
}
