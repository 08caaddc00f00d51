//===- Gather.cpp ---------------------------------------------------------===//
#include "stencilc/mpi/Gather.h"

#include <vector>

namespace stencilc::rt::mpi {

Image2D gatherImage(MPI_Comm comm, const ImagePart &mine, int width, int height) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int header[4] = {mine.x0, mine.y0, mine.part.width, mine.part.height};
  std::vector<int> headers(rank == 0 ? 4 * size : 0);
  MPI_Gather(header, 4, MPI_INT, headers.data(), 4, MPI_INT, 0, comm);
  std::vector<int> counts(size), displacements(size);
  std::vector<float> values;
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      counts[r] = headers[4 * r + 2] * headers[4 * r + 3];
      displacements[r] = total;
      total += counts[r];
    }
    values.resize(std::size_t(total));
  }
  MPI_Gatherv(mine.part.values.data(), int(mine.part.values.size()), MPI_FLOAT, values.data(),
              counts.data(), displacements.data(), MPI_FLOAT, 0, comm);
  Image2D image;
  if (rank != 0)
    return image;
  image.width = width;
  image.height = height;
  image.values.assign(std::size_t(width) * height, 0.0f);
  for (int r = 0; r < size; ++r) {
    const int x0 = headers[4 * r], y0 = headers[4 * r + 1], w = headers[4 * r + 2];
    const int h = headers[4 * r + 3];
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        image.at(x0 + x, y0 + y) = values[std::size_t(displacements[r]) + std::size_t(y) * w + x];
  }
  return image;
}

} // namespace stencilc::rt::mpi
