//===- Gather.h - Pieces of a picture or a trace, assembled on rank 0 ------===//
//
// A snapshot slice or a seismogram is small next to the wavefield: each rank
// sends the rectangle of it that it owns, and rank 0 places every rectangle,
// so the assembled values are exactly the ones computed (no arithmetic on the way).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/io/Png.h"

#include <mpi.h>

namespace stencilc::rt::mpi {

/// A rectangle [x0, x0 + part.width) x [y0, y0 + part.height) of a picture.
struct ImagePart {
  int x0 = 0, y0 = 0;
  Image2D part; ///< empty (0 x 0) when this rank holds none of the picture
};

/// Collective over `comm`: on rank 0, the `width` x `height` picture the
/// parts tile (points no part covers are 0); on the other ranks an empty image.
Image2D gatherImage(MPI_Comm comm, const ImagePart &mine, int width, int height);

} // namespace stencilc::rt::mpi
