//===- ParallelNpy.cpp ----------------------------------------------------===//
#include "stencilc/mpi/ParallelNpy.h"

#include "stencilc/io/Npy.h"

#include <algorithm>
#include <sstream>
#include <vector>

namespace stencilc::rt::mpi {

namespace {

/// Every rank's `ok`, agreed: the ranks where it was false, or "" when none.
std::string failingRanks(MPI_Comm comm, bool ok) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const int mine = ok ? 1 : 0;
  std::vector<int> all(size);
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
  std::string ranks;
  for (int r = 0; r < size; ++r)
    if (!all[r])
      ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
  return ranks;
}

/// The subarray of (nz, ny, nx) that `box` covers, in file order.
MPI_Datatype boxType(const Extent &global, const Box &box) {
  const int sizes[3] = {global.nz, global.ny, global.nx};
  const int subsizes[3] = {box.z1 - box.z0, box.y1 - box.y0, box.x1 - box.x0};
  const int starts[3] = {box.z0, box.y0, box.x0};
  MPI_Datatype type;
  MPI_Type_create_subarray(3, sizes, subsizes, starts, MPI_ORDER_C, MPI_FLOAT, &type);
  MPI_Type_commit(&type);
  return type;
}

} // namespace

void writeNpyParallel(const DomainSplit &d, const Grid<float> &local, const std::string &path) {
  MPI_Comm comm = d.comm();
  const Extent g = d.global();
  const std::string header = formatNpyHeader(npyDescr<float>(), {g.nz, g.ny, g.nx});
  MPI_File file;
  int status =
      MPI_File_open(comm, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file);
  if (std::string bad = failingRanks(comm, status == MPI_SUCCESS); !bad.empty()) {
    if (status == MPI_SUCCESS)
      MPI_File_close(&file);
    throw ParallelIoError(path + ": cannot create (rank " + bad + ")");
  }
  // A file left from an earlier run may be longer: this one ends where its data does.
  const MPI_Offset bytes = MPI_Offset(header.size()) + MPI_Offset(g.nx) * g.ny * g.nz * 4;
  status = MPI_File_set_size(file, bytes);
  if (d.rank() == 0 && status == MPI_SUCCESS)
    status =
        MPI_File_write_at(file, 0, header.data(), int(header.size()), MPI_BYTE, MPI_STATUS_IGNORE);
  // This rank's interior, packed in file order (x fastest).
  const Box &box = d.owned();
  std::vector<float> values;
  values.reserve(std::size_t(box.points()));
  local.forEachInteriorPoint([&](int i, int j, int k) { values.push_back(local(i, j, k)); });
  MPI_Datatype type = boxType(g, box);
  if (status == MPI_SUCCESS)
    status = MPI_File_set_view(file, MPI_Offset(header.size()), MPI_FLOAT, type, "native",
                               MPI_INFO_NULL);
  if (status == MPI_SUCCESS)
    status =
        MPI_File_write_all(file, values.data(), int(values.size()), MPI_FLOAT, MPI_STATUS_IGNORE);
  MPI_Type_free(&type);
  const int closed = MPI_File_close(&file);
  if (std::string bad = failingRanks(comm, status == MPI_SUCCESS && closed == MPI_SUCCESS);
      !bad.empty()) {
    // No partial file is left behind.
    if (d.rank() == 0)
      MPI_File_delete(path.c_str(), MPI_INFO_NULL);
    MPI_Barrier(comm);
    throw ParallelIoError(path + ": write failed (rank " + bad + ")");
  }
}

NpyVolume inspectNpyParallel(MPI_Comm comm, const std::string &path) {
  // Each rank opens the file on its own, so a file missing on one node is
  // found, named and refused everywhere instead of hanging a collective open.
  std::string why;
  NpyVolume volume;
  MPI_File file;
  if (MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file) !=
      MPI_SUCCESS) {
    why = path + ": cannot open";
  } else {
    // The header is at most a few hundred bytes (version 1: 64-byte aligned).
    std::string head(4096, '\0');
    MPI_Status st;
    MPI_File_read_at(file, 0, head.data(), int(head.size()), MPI_BYTE, &st);
    int got = 0;
    MPI_Get_count(&st, MPI_BYTE, &got);
    MPI_Offset size = 0;
    MPI_File_get_size(file, &size);
    MPI_File_close(&file);
    head.resize(std::size_t(std::max(got, 0)));
    try {
      std::istringstream in(head);
      NpyHeader h = parseNpyHeader(in);
      if (h.descr != npyDescr<float>() || h.fortranOrder || h.shape.size() != 3)
        throw std::runtime_error("expected a C-order float32 array of shape (nz, ny, nx)");
      for (int64_t n : h.shape)
        if (n < 1 || n > (1 << 30))
          throw std::runtime_error("unsupported extent " + std::to_string(n));
      volume.extent = {int(h.shape[2]), int(h.shape[1]), int(h.shape[0])};
      volume.dataOffset = static_cast<long long>(in.tellg());
      const long long expected =
          volume.dataOffset + 4LL * volume.extent.nx * volume.extent.ny * volume.extent.nz;
      if (size < expected)
        throw std::runtime_error("data truncated");
    } catch (const std::runtime_error &e) {
      why = path + ": " + e.what();
    }
  }
  // The first failing rank's reason, on every rank.
  std::string bad = failingRanks(comm, why.empty());
  if (!bad.empty()) {
    int rank = 0, first = 0, mine = why.empty() ? 1 << 30 : 0;
    MPI_Comm_rank(comm, &rank);
    if (!why.empty())
      mine = rank;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    int length = int(why.size());
    MPI_Bcast(&length, 1, MPI_INT, first, comm);
    why.resize(std::size_t(length));
    MPI_Bcast(why.data(), length, MPI_CHAR, first, comm);
    throw ParallelIoError(why + " (rank " + bad + ")");
  }
  return volume;
}

void readNpyParallel(const DomainSplit &d, Grid<float> &local, const std::string &path) {
  const NpyVolume volume = inspectNpyParallel(d.comm(), path);
  const Extent g = d.global();
  if (volume.extent.nx != g.nx || volume.extent.ny != g.ny || volume.extent.nz != g.nz)
    throw ParallelIoError(path + ": shape (" + std::to_string(volume.extent.nz) + ", " +
                          std::to_string(volume.extent.ny) + ", " +
                          std::to_string(volume.extent.nx) + ") is not the grid's (" +
                          std::to_string(g.nz) + ", " + std::to_string(g.ny) + ", " +
                          std::to_string(g.nx) + ")");
  // This rank's box and its halo, clipped to the global grid.
  const Box &o = d.owned();
  const int h = local.halo(), hz = local.haloZ();
  Box box{std::max(0, o.x0 - h),    std::max(0, o.y0 - h),    std::max(0, o.z0 - hz),
          std::min(g.nx, o.x1 + h), std::min(g.ny, o.y1 + h), std::min(g.nz, o.z1 + hz)};
  std::vector<float> values(std::size_t(box.points()));
  MPI_File file;
  int status = MPI_File_open(MPI_COMM_SELF, path.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &file);
  if (status == MPI_SUCCESS) {
    MPI_Datatype type = boxType(g, box);
    status = MPI_File_set_view(file, MPI_Offset(volume.dataOffset), MPI_FLOAT, type, "native",
                               MPI_INFO_NULL);
    if (status == MPI_SUCCESS)
      status = MPI_File_read(file, values.data(), int(values.size()), MPI_FLOAT, MPI_STATUS_IGNORE);
    MPI_Type_free(&type);
    MPI_File_close(&file);
  }
  if (std::string bad = failingRanks(d.comm(), status == MPI_SUCCESS); !bad.empty())
    throw ParallelIoError(path + ": read failed (rank " + bad + ")");
  std::size_t n = 0;
  for (int z = box.z0; z < box.z1; ++z)
    for (int y = box.y0; y < box.y1; ++y)
      for (int x = box.x0; x < box.x1; ++x)
        local(x - o.x0, y - o.y0, z - o.z0) = values[n++];
}

} // namespace stencilc::rt::mpi
