//===- ShotRecord.h - The run's receivers as a SEG-Y shot gather -----------===//
#pragma once

#include "Geometry.h"

#include "stencilc/io/Png.h"

#include <string>

namespace wave {

namespace rt = stencilc::rt;

/// Writes `seismogram` (one column per receiver along x at grid row (sj,
/// sk), one row per step) as a SEG-Y shot gather at `path`: the source at grid
/// point (si, sj, sk), coordinates from `grid`, sample interval dt.
void writeShotRecord(const std::string &path, const rt::Image2D &seismogram,
                     const seisio::Geometry &grid, double dt, int si, int sj, int sk);

} // namespace wave
