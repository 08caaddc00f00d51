//===- TrafficKernels.h - Small kernels with known traffic ----------------===//
//
// Launchers of the kernels in TrafficKernels.cu, the one translation unit of
// TrafficTest compiled as a counting build (-fsanitize=thread): each launches
// one kernel whose requests, sectors and wavefronts are known by hand. The
// pointers are device memory (cudaMalloc).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace traffic {

/// out[i] = in[i]: one float per thread, `blocks` blocks of `threads`.
void copyRow(const float *in, float *out, int blocks, int threads);
/// out[i] = in[i * stride]: one warp, each lane `stride` floats after the last.
void stridedRead(const float *in, float *out, int stride);
/// One warp writes shared[lane * stride], waits at a barrier and reads it back
/// into out[lane]; `blocks` blocks of `threads` threads.
void sharedStrided(float *out, int stride, int blocks, int threads);
/// Every lane of one warp reads the same shared word (after one lane wrote it).
void sharedBroadcast(float *out);
/// One warp writes and reads shared doubles, lane i at word pair i.
void sharedDoubles(double *out);
/// Odd lanes make one load more than even lanes: the warp's paths differ.
void divergentLoad(const float *in, float *out);
/// Each thread of one warp loads in[lane + 32 k] for k = 0..3 in a loop.
void loopLoads(const float *in, float *out);

} // namespace traffic
