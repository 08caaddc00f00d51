//===- LayerCondition.h - Tile heights from the layer condition -----------===//
//
// Part of the headers the compiler and the generated code's runtime both rely
// on (stencilc/abi/): the generated `blocked` variant sizes its tiles with it
// at run time, and `stencilc check --explain` says what it gives here.
//
// `blocked` walks a tile plane by plane (z outer) and row by row (y inner),
// each row the tile's width in x. A field read at several z offsets reads
// each input plane again for up to 2 rz later output planes; those reads hit
// the cache only while every plane read in between stays in it: (2 rz + 1)
// planes of the tile's rows with ry more on each side in y, rx more on each
// side in x, for every such field. That is the layer condition for z reuse
// (docs/PERFORMANCE.md §Tile heights from the layer condition). The tile
// height is the tallest of kLayerRows whose planes fill at most half of the
// cache: the other half holds the streams of the other fields and what an
// LRU-like cache does not keep. Where not even the lowest fits, the lowest
// still keeps the most of them in the cache (it was as fast as any other
// height where measured), so it is the height then too.
//
// `naive` walks whole planes, each thread its own range of z: it keeps its z
// reuse while (2 rz + 1) whole planes of those fields, one window per thread,
// fill at most half of the last-level cache, the same condition a level up.
// Where they do not, a run that leaves the variant to the kernel (Auto) takes
// `blocked`, whose tiles keep the planes in L2.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace stencilc::rt {

/// What a sweep's tile keeps for z reuse (the compiler's sweep plan fills it).
struct LayerFootprint {
  int reachX = 0, reachY = 0, reachZ = 0; ///< farthest read of those fields, per axis
  int planeFields = 0;                    ///< fields read at more than one z offset
  int elementBytes = 4;
};

/// The tile heights tried, tallest first; the last is the lowest.
inline constexpr int kLayerRows[] = {64, 32, 16, 8, 4};
inline constexpr int kLowestLayerRows = 4;

/// Bytes of the planes a tile `rows` high and `width` points wide keeps.
constexpr long long layerBytes(const LayerFootprint &f, int rows, int width) {
  return (long long)f.planeFields * (2 * f.reachZ + 1) * (rows + 2 * f.reachY) *
         (width + 2 * f.reachX) * f.elementBytes;
}

/// A tile height and why.
struct LayerChoice {
  int rows = 0;         ///< the height chosen
  long long bytes = 0;  ///< its planes' bytes (for the lowest height where none fits)
  long long budget = 0; ///< half of the cache
  bool fits = false;    ///< false: no height satisfies the condition; `rows` is the lowest
};

/// The tallest height of kLayerRows whose planes, `width` points wide, fill at
/// most half of `cacheBytes`, else the lowest; `fallback` for a footprint with
/// no plane fields or an unknown cache.
constexpr LayerChoice layerConditionRows(const LayerFootprint &f, int width, long long cacheBytes,
                                         int fallback) {
  const long long budget = cacheBytes / 2;
  if (f.planeFields == 0 || cacheBytes <= 0)
    return {fallback, 0, budget, false};
  for (int rows : kLayerRows)
    if (layerBytes(f, rows, width) <= budget)
      return {rows, layerBytes(f, rows, width), budget, true};
  return {kLowestLayerRows, layerBytes(f, kLowestLayerRows, width), budget, false};
}

/// Whether `threads` windows of the whole planes `naive` keeps (rows ny and
/// nx points wide) fill at most half of `cacheBytes`; true for a footprint
/// with no plane fields or an unknown cache.
constexpr bool wholePlanesFit(const LayerFootprint &f, int nx, int ny, int threads,
                              long long cacheBytes) {
  return f.planeFields == 0 || cacheBytes <= 0 ||
         (long long)threads * layerBytes(f, ny, nx) <= cacheBytes / 2;
}

} // namespace stencilc::rt
