//===- GpuModel.h - What a CUDA variant should reach on a given GPU --------===//
//
// A bound per resource a generated kernel can run out of, each in grid
// points per second, and the least of them as the prediction
// (docs/PERFORMANCE-MODEL.md §GPU model):
//
//   dram     bandwidth / DRAM bytes per point. The launch moves its distinct
//            sectors (GpuTraffic::dramBytesEstimate) while the planes a
//            field is read again on fit in half the L2; past that every
//            block's sectors come from DRAM.
//   l2       L2 bandwidth / bytes L1 misses per point (each block's
//            distinct sectors, and its stores; table rows gathered through
//            L1 count once when they fit in what shared memory leaves of it),
//            and spilled registers' bytes when the resident threads' stack
//            frames do not fit in what shared memory leaves of L1.
//   l1       multiprocessors x sectors L1 returns a clock / global load
//            sectors per point (scattered gathers touch many sectors) and
//            spilled registers' sectors (local memory is interleaved by
//            4-byte words across the lanes: a warp's access is 4 sectors).
//   shared   multiprocessors x wavefronts a clock / wavefronts per point.
//   issue    multiprocessors x warp instructions a clock / warp
//            instructions per point: the compiled kernels' PTX instructions
//            when measured (a static count: library slow paths included),
//            else loads, stores, shared accesses and flops from the plan, a
//            call of sin, cos or exp at its PTX cost (callCost). A
//            march's count is not per point (prologue, staging): it takes
//            gmem's arithmetic (gmem's PTX less its memory accesses) and adds
//            its own accesses. Spilled registers add their local loads and
//            stores.
//   fp64     multiprocessors x FP64 warp instructions a clock / FP64
//            instructions per point (double only): GH100 and GA100 have half
//            as many FP64 lanes as FP32 ones (CUDA C++ Programming Guide,
//            throughput of arithmetic instructions).
//   latency  Little's law: the points resident threads have in flight,
//            over the round trips to memory a point waits for in turn
//            (one for gmem and ro, whose loads are independent; per plane of
//            a march, one per group of loads issued behind a barrier or a
//            wait).
//   compute  peak flops / flops per point.
//
// Occupancy comes from registers (ptxas's count when given, else an estimate
// from the register queues the sweep plan keeps) and shared memory per block.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/GpuTraffic.h"
#include "analysis/Machine.h"

#include <optional>
#include <string>
#include <vector>

namespace stencilc::analysis {

struct GpuBoundTerm {
  std::string name; ///< dram, l2, l1, shared, issue, fp64, latency, compute
  double gpts = 0;
};

struct GpuPrediction {
  std::string variant;
  GpuTraffic traffic;
  double dramBytesPerPoint = 0, l2BytesPerPoint = 0;
  double warpInstructionsPerPoint = 0;
  double fp64InstructionsPerPoint = 0; ///< FP64 arithmetic, warp instructions
  double spillBytesPerPoint = 0;       ///< local loads and stores a thread makes a point
  bool spillsInL1 = true;              ///< the resident stack frames fit in L1
  int registersPerThread = 0;
  bool registersFromPtxas = false;
  bool instructionsFromPtx = false;
  /// "ptx" (the variant's own kernels), "ptx of gmem" (a march: gmem's
  /// arithmetic and its own accesses) or "estimate" (the plan).
  std::string instructionsFrom = "estimate";
  long sharedBytesPerBlock = 0;
  bool tablesInL1 = false; ///< the gathered table rows stay in L1 across blocks
  int blocksPerSm = 0;
  double occupancy = 0;           ///< resident threads / the multiprocessor's maximum
  double roundTripsPerPoint = 0;  ///< memory round trips a thread waits for, per point
  double bytesInFlightPerSm = 0;  ///< what the resident threads keep in flight
  double bytesInFlightNeeded = 0; ///< DRAM bandwidth per multiprocessor x latency
  std::vector<GpuBoundTerm> terms;
  std::string bound;
  double predictedGpts = 0;
};

struct GpuModelInputs {
  GpuLaunchShape shape;
  GridExtent extent;
  IndexFill index = IndexFill::Random;
  int tableColumns = 902;
  /// Registers per thread of the variant's kernel (sweep 0) from ptxas, if measured.
  std::optional<int> registers;
  /// Instructions a thread issues per point, from the compiled kernels (the
  /// PTX of every sweep), if measured: replaces the plan's estimate.
  std::optional<double> threadInstructions;
  /// Of those, the FP64 arithmetic.
  std::optional<double> threadFp64Instructions;
  /// Instructions a thread issues per point besides its global and shared
  /// accesses, from gmem's PTX: what a march computes per point (with
  /// threadFp64Instructions from gmem too). Used where threadInstructions is unset.
  std::optional<double> arithmeticInstructions;
  /// Spill stores and loads (bytes per thread; ptxas) of the variant's kernels
  /// and their stack frame: a store or load in the code runs once per point
  /// (once a plane in a march, where the queues that spill live).
  int spillBytes = 0, stackBytes = 0;
};

/// PTX instructions a call of `f` adds to a kernel over its argument (nvcc's
/// libdevice, slow path included, as the --ptxas count sees it), and the FP64
/// arithmetic among them.
struct CallCost {
  int instructions = 1, fp64 = 0;
};
CallCost callCost(ir::FuncKind f, ir::ElemType type);

/// The prediction for `variant` of `c` on `machine`, which must have GPU figures.
GpuPrediction predictGpu(const CompiledStencil &c, const std::string &variant,
                         const Machine &machine, const GpuModelInputs &inputs);

} // namespace stencilc::analysis
