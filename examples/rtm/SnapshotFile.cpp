//===- SnapshotFile.cpp - Wavefield snapshots on disk, checked on read -----===//
#include "SnapshotFile.h"

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace rtm {

namespace {
constexpr char kMagic[8] = {'S', 'T', 'C', 'S', 'N', 'A', 'P', '1'};
constexpr uint32_t kFloat32 = 1;

template <typename T> void put(std::string &out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T)); // the hosts we build for are little-endian
  out.append(bytes, sizeof(T));
}
template <typename T> T get(const char *at) {
  T value;
  std::memcpy(&value, at, sizeof(T));
  return value;
}
} // namespace

uint64_t snapshotChecksum(const std::vector<float> &values) {
  uint64_t hash = 0xcbf29ce484222325ull;
  const auto *bytes = reinterpret_cast<const unsigned char *>(values.data());
  for (size_t n = 0; n < values.size() * sizeof(float); ++n) {
    hash ^= bytes[n];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

void writeSnapshotFile(const std::string &path, const SnapshotShape &shape, int step,
                       const std::vector<float> &values) {
  if (values.size() != shape.points())
    throw std::logic_error(path + ": snapshot of the wrong size");
  std::string header(kMagic, sizeof(kMagic));
  put(header, kFloat32);
  put(header, int32_t(shape.nx));
  put(header, int32_t(shape.ny));
  put(header, int32_t(shape.nz));
  put(header, int32_t(step));
  put(header, uint64_t(values.size() * sizeof(float)));
  put(header, snapshotChecksum(values));
  bool ok = false;
  {
    std::ofstream os(path, std::ios::binary | std::ios::trunc);
    if (os) {
      os.write(header.data(), std::streamsize(header.size()));
      os.write(reinterpret_cast<const char *>(values.data()),
               std::streamsize(values.size() * sizeof(float)));
      ok = bool(os.flush());
    }
  }
  if (!ok) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    throw std::runtime_error(path + ": cannot write the snapshot (directory not writable, or "
                                    "disk full)");
  }
}

void readSnapshotFile(const std::string &path, const SnapshotShape &shape, int step,
                      std::vector<float> &values) {
  std::ifstream is(path, std::ios::binary);
  if (!is)
    throw std::runtime_error(path + ": cannot open the snapshot");
  char header[kSnapshotHeaderBytes];
  if (!is.read(header, sizeof(header)))
    throw std::runtime_error(path + ": truncated: shorter than a snapshot header");
  if (std::memcmp(header, kMagic, sizeof(kMagic)) != 0)
    throw std::runtime_error(path + ": not a snapshot file (bad magic)");
  if (get<uint32_t>(header + 8) != kFloat32)
    throw std::runtime_error(path + ": element type " + std::to_string(get<uint32_t>(header + 8)) +
                             ", expected 1 (float32)");
  const SnapshotShape found{get<int32_t>(header + 12), get<int32_t>(header + 16),
                            get<int32_t>(header + 20)};
  if (!(found == shape))
    throw std::runtime_error(path + ": shape " + std::to_string(found.nx) + "x" +
                             std::to_string(found.ny) + "x" + std::to_string(found.nz) +
                             ", expected " + std::to_string(shape.nx) + "x" +
                             std::to_string(shape.ny) + "x" + std::to_string(shape.nz));
  if (get<int32_t>(header + 24) != step)
    throw std::runtime_error(path + ": holds step " + std::to_string(get<int32_t>(header + 24)) +
                             ", expected " + std::to_string(step));
  const uint64_t bytes = get<uint64_t>(header + 28);
  if (bytes != shape.points() * sizeof(float))
    throw std::runtime_error(path + ": header says " + std::to_string(bytes) +
                             " payload bytes, expected " +
                             std::to_string(shape.points() * sizeof(float)));
  values.resize(shape.points());
  if (!is.read(reinterpret_cast<char *>(values.data()), std::streamsize(bytes)))
    throw std::runtime_error(path + ": truncated: " + std::to_string(is.gcount()) + " of " +
                             std::to_string(bytes) + " payload bytes");
  if (is.peek() != std::ifstream::traits_type::eof())
    throw std::runtime_error(path + ": longer than its header says");
  if (snapshotChecksum(values) != get<uint64_t>(header + 36))
    throw std::runtime_error(path + ": checksum mismatch: the payload is corrupted");
}

} // namespace rtm
