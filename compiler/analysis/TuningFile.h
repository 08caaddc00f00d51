//===- TuningFile.h - What `stencilc tune` found, per machine and stencil --===//
//
// A tuning file (docs/PERFORMANCE.md "Tuning") holds, for each machine it was
// measured on (CPU model, core count and cache sizes), for each stencil (its
// name and a hash of its IR, so that an entry for an edited stencil is seen to
// be stale), for each element type: the CPU variant, its tiles and the time
// steps per pass that ran fastest, with the speeds measured for it and for the
// untuned defaults in the same run. `stencilc tune` writes it, merging into
// what is there; `stencilc gen --tuning` reads the entry of the machine it
// runs on.
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

struct TunedStencil {
  std::string hash;                          ///< stencilHash of the stencil tuned
  std::map<std::string, TunedChoice> byType; ///< "float", "double"
};

struct TunedMachine {
  MachineKey key;
  std::map<std::string, TunedStencil> stencils; ///< by stencil name
};

struct TuningFile {
  std::vector<TunedMachine> machines;
};

/// Reads a tuning file's text; the error names `fileName` and what is wrong
/// where ("t.json: machines[0].stencils.ete37.float.variant: ...").
llvm::Expected<TuningFile> parseTuningFile(llvm::StringRef text, llvm::StringRef fileName);
llvm::Expected<TuningFile> readTuningFile(const std::string &path);

std::string tuningFileText(const TuningFile &file);

/// Sets the entry of (machine, stencil, type), keeping every other. An entry
/// for the stencil under another hash is stale: its other types are dropped.
void mergeChoice(TuningFile &file, const MachineKey &machine, const std::string &stencil,
                 const std::string &hash, const std::string &type, const TunedChoice &choice);

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
