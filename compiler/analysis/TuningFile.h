//===- TuningFile.h - What `stencilc tune` found, per machine and stencil --===//
//
// A tuning file (docs/PERFORMANCE.md "Tuning") holds, for each machine it was
// measured on (CPU model, core count and cache sizes), for each stencil (its
// name and a hash of its IR, so that an entry for an edited stencil is seen to
// be stale), for each element type: the CPU variant, its tiles and the time
// steps per pass that ran fastest, with the speeds measured for it and for the
// untuned defaults in the same run. For each GPU (its name and compute
// capability) it holds the CUDA launch that ran fastest: variant, block and
// planes per block. `stencilc tune` writes it, merging into what is there;
// `stencilc gen --tuning` reads the entry of the machine it runs on for the
// CPU kernels, and every device's entry for the CUDA ones (each applies on the
// GPU of its name).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include "target/RunConfig.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace stencilc::analysis {

/// What identifies a machine: kernels tuned on one may be slow on another.
struct MachineKey {
  std::string cpu; ///< the model name from /proc/cpuinfo
  int cores = 0;   ///< online CPUs
  long long l1d = 0, l2 = 0, l3 = 0;
  bool operator==(const MachineKey &o) const {
    return cpu == o.cpu && cores == o.cores && l1d == o.l1d && l2 == o.l2 && l3 == o.l3;
  }
  /// "AMD EPYC, 2 cores, L1d 32 KiB, L2 512 KiB, L3 32 MiB"
  std::string describe() const;
};

/// This machine's key.
MachineKey thisMachine();

/// The key as one line of JSON, as the file holds it (`stencilc tune --machine-key`).
std::string machineKeyJson(const MachineKey &key);

/// A hash of the stencil's IR, whatever its element type (the file keeps one
/// entry per type under the same hash): "xxh64:<16 hex digits>".
std::string stencilHash(const ir::Stencil &s);

/// How a stencil runs fastest on a machine, in one element type.
struct TunedChoice {
  target::RunConfig run;
  double gptsPerSecond = 0;        ///< measured for this choice
  double defaultGptsPerSecond = 0; ///< measured for the untuned defaults, same run
  int nx = 0, ny = 0, nz = 0;      ///< the grid it was measured on
  std::string date;                ///< YYYY-MM-DD
};

/// What was tuned of one stencil on one machine or GPU: a Choice per element type.
template <typename Choice> struct TunedEntries {
  std::string hash;                     ///< stencilHash of the stencil tuned
  std::map<std::string, Choice> byType; ///< "float", "double"
};
using TunedStencil = TunedEntries<TunedChoice>;

struct TunedMachine {
  MachineKey key;
  std::map<std::string, TunedStencil> stencils; ///< by stencil name
};

/// What identifies a GPU for its launches: the name the CUDA runtime gives it
/// (cudaDeviceProp::name), which the generated kernels look up where they run,
/// and its compute capability x 10.
struct DeviceKey {
  std::string name;
  int computeCapability = 0;
  bool operator==(const DeviceKey &o) const {
    return name == o.name && computeCapability == o.computeCapability;
  }
};

/// How a stencil's CUDA step launches fastest on a device, in one element type
/// (`stencilc tune --backend cuda`).
struct TunedLaunch {
  std::string variant;             ///< gmem, ro, traditional, planes
  int blockX = 0, blockY = 0;      ///< threads per block
  int nw = 0;                      ///< planes a marching block takes in z; 0 for the others
  int rows = 1;                    ///< output rows per thread (1 where the variant takes none)
  double gptsPerSecond = 0;        ///< measured for this launch
  double defaultGptsPerSecond = 0; ///< measured for the launch defaults, same run
  int nx = 0, ny = 0, nz = 0;      ///< the grid it was measured on
  std::string date;                ///< YYYY-MM-DD
};

struct TunedDevice {
  DeviceKey key;
  std::map<std::string, TunedEntries<TunedLaunch>> stencils; ///< by stencil name
};

struct TuningFile {
  std::vector<TunedMachine> machines; ///< CPU kernels, by machine
  std::vector<TunedDevice> devices;   ///< CUDA launches, by GPU
};

/// Today's date in UTC, YYYY-MM-DD: what an entry records of when it was tuned.
std::string tuningDate();

/// Reads a tuning file's text; the error names `fileName` and what is wrong
/// where ("t.json: machines[0].stencils.ete37.float.variant: ...").
llvm::Expected<TuningFile> parseTuningFile(llvm::StringRef text, llvm::StringRef fileName);
llvm::Expected<TuningFile> readTuningFile(const std::string &path);

std::string tuningFileText(const TuningFile &file);

/// Sets the entry of (machine, stencil, type), keeping every other. An entry
/// for the stencil under another hash is stale: its other types are dropped.
void mergeChoice(TuningFile &file, const MachineKey &machine, const std::string &stencil,
                 const std::string &hash, const std::string &type, const TunedChoice &choice);

/// Sets the CUDA entry of (device, stencil, type), as mergeChoice does for a machine.
void mergeLaunch(TuningFile &file, const DeviceKey &device, const std::string &stencil,
                 const std::string &hash, const std::string &type, const TunedLaunch &launch);

/// The tuned launches of (stencil, hash, type) on every device of the file
/// that has one, in the file's order; stale entries (another hash) are left out.
std::vector<std::pair<DeviceKey, TunedLaunch>> launchesFor(const TuningFile &file,
                                                           const std::string &stencil,
                                                           const std::string &hash,
                                                           const std::string &type);

/// Writes the file whole or not at all (a temporary file renamed into place).
llvm::Error writeTuningFile(const std::string &path, const TuningFile &file);

/// The entry for (machine, stencil, hash, type), or why there is none.
struct TuningLookup {
  const TunedChoice *choice = nullptr;
  std::string whyNot; ///< when choice is null: one sentence
};
TuningLookup findChoice(const TuningFile &file, const MachineKey &machine,
                        const std::string &stencil, const std::string &hash,
                        const std::string &type);

} // namespace stencilc::analysis
