//===- SnapshotFile.h - Wavefield snapshots on disk, checked on read -------===//
//
// The disk strategy of the imaging example keeps the forward wavefield's
// interior every k steps in a file of its own. A file starts with a header
// that says what it holds, so that reading it back refuses anything else:
//
//   bytes  0..7   magic "STCSNAP1"
//          8..11  element type (1 = float32, little-endian)
//         12..23  nx, ny, nz (int32)
//         24..27  step (int32)
//         28..35  payload bytes (uint64)
//         36..43  FNV-1a 64-bit checksum of the payload
//         44..    payload: the interior, x fastest
//
// A file that is not a snapshot (bad magic), of another shape, type or step,
// truncated or longer than its header says, or whose payload does not match
// its checksum is refused with a message naming the file and the mismatch.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rtm {

struct SnapshotShape {
  int nx = 0, ny = 0, nz = 0;
  size_t points() const { return size_t(nx) * size_t(ny) * size_t(nz); }
  bool operator==(const SnapshotShape &) const = default;
};

inline constexpr size_t kSnapshotHeaderBytes = 44;

/// FNV-1a over the bytes of `values`.
uint64_t snapshotChecksum(const std::vector<float> &values);

/// Writes `values` (shape.points() of them) as snapshot `step` at `path`;
/// throws std::runtime_error naming the path when the file cannot be written
/// in full (a full disk included), removing what it wrote.
void writeSnapshotFile(const std::string &path, const SnapshotShape &shape, int step,
                       const std::vector<float> &values);

/// Reads snapshot `step` of `shape` from `path` into `values`; throws
/// std::runtime_error naming the path and the mismatch for anything else.
void readSnapshotFile(const std::string &path, const SnapshotShape &shape, int step,
                      std::vector<float> &values);

} // namespace rtm
