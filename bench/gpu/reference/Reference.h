//===- Reference.h - Hand-written CUDA kernels, the GPU benchmark's peers --===//
//
// What a user would otherwise write by hand, written from the published
// algorithms and not generated: the same-run peer of the generated kernels in
// bench/gpu (docs/PERFORMANCE.md §CUDA variants on a GPU). Each takes the
// erased arguments of the generated kernel of the same stencil (its fields in
// the generated order, its tables and scalars), so gpu-bench checks it against
// the reference evaluator and times it like every generated variant.
//
//   acoustic_iso8 (dsl-examples/acoustic_iso8.stencil):
//     textbook   the 2.5D register-queue kernel of Micikevicius (GPGPU-2,
//                2009): a 2D block marches z, the current plane in shared
//                memory with its halo, the column's z neighbours in a
//                register queue, one output per thread.
//     march      the design the generator is to produce (AcousticMarch.cu):
//                several rows per thread, the next plane's loads in flight
//                while the current one computes, double-buffered shared
//                planes, one barrier per plane. Rows "march:BXxBYrR[aA]":
//                blocks of BX x BY threads, R rows each, 64 planes, loads A
//                planes ahead (1).
//     marchvec   march with V consecutive points of a row per thread, every
//                row and halo load one vector (AcousticMarchVec.cu). Rows
//                "marchvec:BXxBYvV[rR]": blocks of BX x BY threads, V points
//                per thread in x, R rows (1).
//     column     no shared memory: a thread marches its column with the z
//                neighbours in a register queue and reads the x and y
//                neighbours through the L1 cache (AcousticColumn.cu). Rows
//                "column:BXxBYpP": blocks of BX x BY threads, P planes.
//   ete37 (dsl-examples/ete37.stencil):
//     plain      one thread per point, the index read once, the 11
//                coefficients of its table column through the read-only
//                cache, the 37 points from global memory.
//     column     a thread marches its column, the z axis points in a register
//                queue, the table through the read-only cache; column-shared:
//                the table copied to shared memory per block (EteColumn.cu).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/Kernel.h>
#include <stencilc/cuda/Cuda.h>

#include <vector>

namespace stencilc::bench::reference {

/// One hand-written kernel: `run` makes one step on a stream.
struct Handwritten {
  const char *name;
  void (*run)(const rt::ErasedArgs &args, cudaStream_t stream);
};

/// acoustic_iso8's (fields u_prev, u, u_next, v; scalars dt, h).
template <typename Real> std::vector<Handwritten> acousticIso8();

/// ETE-37's (fields p_prev, p_cur, p_next, vidx (uint16); table C of 11 rows, a column per
/// index value).
template <typename Real> std::vector<Handwritten> ete37();

// The kernels, one step each.
template <typename Real> void acousticTextbook(const rt::ErasedArgs &args, cudaStream_t stream);
/// Blocks of Bx x By threads, Rows outputs per thread in y, Planes planes marched per block,
/// the column's loads Ahead planes ahead.
template <typename Real, int Bx, int By, int Rows, int Planes, int Ahead>
void acousticMarch(const rt::ErasedArgs &args, cudaStream_t stream);
/// Blocks of Bx x By threads, V points per thread in x loaded as one vector, Rows rows.
template <typename Real, int Bx, int By, int V, int Rows>
void acousticMarchVec(const rt::ErasedArgs &args, cudaStream_t stream);
/// Blocks of Bx x By threads, Planes planes marched per block.
template <typename Real, int Bx, int By, int Planes>
void acousticColumn(const rt::ErasedArgs &args, cudaStream_t stream);
template <typename Real> void etePlain(const rt::ErasedArgs &args, cudaStream_t stream);
/// The table through the read-only cache, or (SharedTable) copied to shared memory per block.
template <typename Real, bool SharedTable>
void eteColumn(const rt::ErasedArgs &args, cudaStream_t stream);

template <typename Real> std::vector<Handwritten> acousticIso8() {
  return {{"textbook", acousticTextbook<Real>},
          {"march:32x8r2", acousticMarch<Real, 32, 8, 2, 64, 1>},
          {"march:32x8r1", acousticMarch<Real, 32, 8, 1, 64, 1>},
          {"march:32x8r2a2", acousticMarch<Real, 32, 8, 2, 64, 2>},
          {"march:32x8r1a2", acousticMarch<Real, 32, 8, 1, 64, 2>},
          {"march:32x16r1a2", acousticMarch<Real, 32, 16, 1, 64, 2>},
          {"march:32x8r4a2", acousticMarch<Real, 32, 8, 4, 64, 2>},
          {"marchvec:8x8v4", acousticMarchVec<Real, 8, 8, 4, 1>},
          {"marchvec:16x8v4", acousticMarchVec<Real, 16, 8, 4, 1>},
          {"marchvec:8x16v4", acousticMarchVec<Real, 8, 16, 4, 1>},
          {"marchvec:16x8v2r2", acousticMarchVec<Real, 16, 8, 2, 2>},
          {"marchvec:16x8v2", acousticMarchVec<Real, 16, 8, 2, 1>},
          {"column:32x8p32", acousticColumn<Real, 32, 8, 32>},
          {"column:32x16p64", acousticColumn<Real, 32, 16, 64>},
          {"column:32x4p64", acousticColumn<Real, 32, 4, 64>}};
}
template <typename Real> std::vector<Handwritten> ete37() {
  return {{"plain", etePlain<Real>},
          {"column", eteColumn<Real, false>},
          {"column-shared", eteColumn<Real, true>}};
}

} // namespace stencilc::bench::reference
