//===- IndexArray.h - Per-point integer arrays for table lookups ----------===//
//
// An index array (`idx(x)` of docs/DESIGN.md §ETE coefficients [1], e.g. the
// discretised velocity) holds
// one table column per grid point. It has exactly the layout of a Grid, so
// a kernel walks it with the same offsets as the wavefields it reads.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/Grid.h"

#include <concepts>
#include <cstdint>

namespace stencilc::rt {

/// The element types the DSL's `index uint8|uint16|int32` fields map to.
template <typename I>
concept IndexElement =
    std::same_as<I, uint8_t> || std::same_as<I, uint16_t> || std::same_as<I, int32_t>;

template <IndexElement I> using IndexArray = Grid<I>;

} // namespace stencilc::rt
