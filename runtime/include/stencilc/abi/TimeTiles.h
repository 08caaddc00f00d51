//===- TimeTiles.h - The default extents of time tiles ---------------------===//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/): `rt::runTimeTiled` cuts a pass with these tiles where
// its caller leaves them at 0, and `stencilc tune` searches around them.
//
// A tile is whole rows in x, kTimeTileY rows in y, and in z kTimeTileZ planes
// where a row is shorter than kLongRowBytes, kLongRowTileZ where it is as long
// or longer. A level of a tile reads its rows with the reach r around them
// ((32 + 2r) x (z + 2r) rows of a time level against the 32 z it computes),
// and on the rows of 1 KiB and more measured no level of either tile stayed in
// the L2: there the taller tile, which reads 1.9 rows a computed row at r = 4
// against 2.5, ran faster; on shorter rows the lower one did
// (docs/PERFORMANCE.md §Default time tiles and depth).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace stencilc::rt {

inline constexpr int kTimeTileY = 32;
inline constexpr int kTimeTileZ = 8;
inline constexpr int kLongRowTileZ = 16;
inline constexpr long kLongRowBytes = 1024;

/// The default tile extent in z on rows of `nx` elements of `elementBytes` each.
constexpr int defaultTimeTileZ(int nx, int elementBytes) {
  return long(nx) * elementBytes >= kLongRowBytes ? kLongRowTileZ : kTimeTileZ;
}

} // namespace stencilc::rt
