//===- KernelIR.h - Loops, reads, sums and stores of the generated kernels ===//
//
// The level below the sweep plan (docs/DESIGN.md §Kernel IR): each variant of
// each sweep is a set of functions whose bodies are small trees of
//
//   loops      over an axis of the box the kernel computes, of one tile of
//              it, or of the planes a CUDA block marches (bounds are always
//              a box edge plus a constant, so every kernel runs on any sub-box);
//   guards     the output plane an input plane adds to lies in the tile or
//              march, every such plane does, or the thread is inside the box;
//   calls      of another function of the same variant (the CPU's row
//              functions, one x loop each);
//   staging    of table rows (into a vector block, an output row's buffer or
//              shared memory) and of time-field planes with their halo, in
//              order or as asynchronous copies into the other of two buffers;
//   barriers   waits for those copies, and register-queue shifts;
//   sums       of coefficient groups at a point, into a value or a partial
//              sum, then accumulate-into-partial-sum and store.
//
// The pipeline's lower-cpu and lower-cuda passes build it from the sweep plan
// (lowerToKernels), with every decision the printers print recorded in it;
// the printers in backends/ walk it (backends/KernelWalker.h) and differ only
// in how a loop, a read or a stage is spelled. `stencilc dump-kernel` prints it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"
#include "ir/linear/LinearForm.h"
#include "kernel/RunDefaults.h"
#include "passes/Planner.h"
#include "passes/SweepPlan.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <vector>

namespace stencilc {
struct CompiledStencil; // passes/Pipeline.h: the lowering passes keep their modules there
} // namespace stencilc

namespace stencilc::kernel {

enum class Target { Cpu, Cuda };
const char *targetName(Target t); // "cpu", "cuda"

/// The variables kernels loop over or guard on.
enum class Var {
  X,     ///< output point along x
  Y,     ///< output row
  Z,     ///< output plane
  ZIn,   ///< input plane of a march (`zi`)
  ZDone, ///< output plane a march has finished (`zdone`; `zo` on the GPU)
};
const char *varName(Var v); // "x", "y", "z", "zi", "zdone"

/// What a loop bound is measured from: the edges of the box the kernel
/// computes, of the tile a CPU thread owns, or of the planes a CUDA block marches.
enum class Span {
  Box,   ///< the box the kernel computes
  Tile,  ///< the tile a CPU thread owns
  March, ///< the planes a CUDA block marches
  Range, ///< the planes [z0, z1) a CPU caller passes
  /// The columns of a CUDA block widened by how far the next step of a two-step
  /// launch reads (Function::rx, ry): the points its ring planes hold.
  Widened,
};
const char *spanName(Span s); // "box", "tile", "march"

/// How a loop's iterations are shared out.
enum class Schedule {
  Threads, ///< among threads: OpenMP worksharing on the CPU, the launch grid in CUDA
  Serial,  ///< in order, by one thread
  Vector,  ///< along x in SIMD lanes (CPU)
};
const char *scheduleName(Schedule s); // "threads", "serial", "vector"

/// Where a group sum goes.
enum class SumTarget {
  Value,   ///< a fresh local value of the output point
  Partial, ///< the partial sum of an output plane (slot, plane offset)
};

/// The locals a body sums into, per output; printers spell them.
enum class ValueName {
  Acc,   ///< the output's sum at a point (plane k of several: Node::planeShift)
  Sum,   ///< a sum about to be added to a partial sum
  Value, ///< the value about to be stored
};
const char *valueNameText(ValueName v);

/// Where staged table rows go.
enum class StageDest {
  VectorBlock, ///< a buffer of the kW points of one vector block (CPU)
  RowBuffer,   ///< the buffer of one output row, kept while its planes come in (CPU planes)
  Shared,      ///< the block's shared memory (CUDA)
  SharedAuto,  ///< shared memory when the rows fit the budget (kStageAuto), else read-only
};
const char *stageDestName(StageDest d);

enum class GuardKind {
  OutputInSpan, ///< zo = zi - dz lies in the span's planes
  AllOutputsIn, ///< every zi - dz of the plan's plane offsets lies in the span
  DoneInSpan,   ///< zdone = zi - dzMax lies in the span
  Active,       ///< the thread's point is inside the box (CUDA)
  FirstPlane,   ///< z is the first plane of the span (CUDA: the march's first step)
  NextInSpan,   ///< plane z + 1 lies in the span (CUDA: the march has a next step)
};
const char *guardName(GuardKind g);

enum class NodeKind {
  Loop,
  Tiles, ///< the tiles of the box, shared out among threads; body runs per tile
  Guard,
  Call,
  StageRows,  ///< rows [beginRow, endRow) of a table column, through an index field
  StagedRows, ///< rows another function staged for this one (CPU planes), read from slot
  StageTile,  ///< a time field's plane with its halo into shared memory
  WaitTiles,  ///< this thread's asynchronous plane copies have landed (Function::tileBuffers)
  Barrier,
  ShiftQueues, ///< every register queue takes the next plane
  ShiftPartials,
  Sum,
  Accumulate, ///< a value into an output's partial sum
  Store,
};
const char *nodeKindName(NodeKind k);

/// One node of a kernel body. A tagged struct: each kind uses the fields its
/// comment names, the verifier checks the rest are at their defaults where it matters.
struct Node {
  NodeKind kind = NodeKind::Barrier;
  std::string note; ///< why, printed as a comment where the printer keeps one

  // Loop: var over [span.lo(axis) + low, span.hi(axis) + high) by step.
  Var var = Var::X;
  Span span = Span::Box;
  int low = 0, high = 0, step = 1;
  Schedule schedule = Schedule::Serial;

  /// Loop: starts where the loop before it stopped (a remainder loop).
  bool continues = false;

  // Guard: kind, span and the plane offset dz (OutputInSpan). With skipRest
  // the statements after the guard run only where it does not hold.
  GuardKind guard = GuardKind::Active;
  Span guardSpan = Span::Tile;
  bool skipRest = false;

  // Call: the callee (a function of the same sweep) and the row it works on:
  // (y, z); output row (y, zi - dz) of a march (Var::ZIn with dz); (y, zdone);
  // or, for a function of the input row, (y, zi) with every output row's sums.
  std::string callee;
  Var row = Var::Z;
  /// Call/Sum/Accumulate/StagedRows: the point is on the input row and its
  /// output row is dz planes below it (the CPU scatter); reads are relative
  /// to the input row, and partial sums and staged rows are the output row's.
  bool inputRow = false;

  // StageRows: table, index field, rows, destination, first slot; planeShift
  // is the output plane (z + planeShift) whose points it stages. StageTile:
  // planeShift is the plane (z + planeShift) it copies.
  int table = -1, index = -1, beginRow = 0, endRow = 0;
  StageDest dest = StageDest::VectorBlock;
  int slot = -1;
  int planeShift = 0;

  // StageTile: field and halo.
  int field = -1, rx = 0, ry = 0;

  // Sum / Accumulate / Store: the update, its groups, the input plane offset
  // dz the points are restricted to (hasDz), and where the sum goes.
  int update = -1;
  std::vector<int> groups;
  bool hasDz = false;
  int dz = 0;
  SumTarget target = SumTarget::Value;
  bool pointwise = false;            ///< Sum: add the update's pointwise part
  bool withoutSharedFactors = false; ///< Sum: the shared factors are applied at the store
  bool comments = true;              ///< Sum: each group in DSL syntax above it
  bool add = false;                  ///< Store: `+=` (a later sweep) instead of `=`
  bool fromPartial = false;          ///< Store: the value adds the finished partial sum
  bool scaleShared = false;          ///< Store: ... times the shared factors
  bool deferred = false;             ///< Store: after every load of the body (several planes)
  /// Store: into the shared ring of the level the next step of the launch
  /// reads, and to memory where the point is one of the block's own.
  bool ring = false;
  /// Sum/Store: the step of a multi-step launch (Function::steps) the node
  /// belongs to; from step 1 on, reads of the levels the step before computed
  /// come from its rings.
  int level = 0;
  /// Sum: reads come from the shared planes and register queues of the kernel.
  bool onChip = false;
  ValueName value = ValueName::Acc; ///< Sum/Accumulate/Store: the local the sum goes to

  std::vector<Node> body;
};

enum class FunctionKind {
  Row,    ///< CPU: the x loop of one output row (or of several planes' rows)
  Stage,  ///< CPU: stages the table rows of one output row for the functions that read them
  Driver, ///< CPU: the loops over the box or its tiles that call the row functions
  Device, ///< CUDA: a __global__ kernel
};
const char *functionKindName(FunctionKind k);

/// What a function receives besides the arguments and the box.
struct Params {
  bool partialSums = false;    ///< CPU row: acc[] pointers to its rows' partial sums
  bool stagedRows = false;     ///< CPU row: coefs[] pointers to staged coefficients
  bool tileSizes = false;      ///< CPU driver: by, bz
  bool zRange = false;         ///< CPU driver: z0, z1 (rows of several planes)
  bool planesPerBlock = false; ///< CUDA: nw
  bool stageAuto = false;      ///< CUDA: template <bool kStageAuto>
  bool rowsPerThread = false;  ///< CUDA: template <int kRows> (Function::rowCounts)
};

/// A multi-to-one register queue: the points of column (dx, dy) of a field
/// on planes z + low .. z + high.
struct Queue {
  int field = -1, dx = 0, dy = 0, low = 0, high = 0;
};

/// CPU: a row whose x neighbours a whole block cuts from the vectors its reads
/// share (rt::shifted): field, row offsets dy and dz, and how far its reads
/// reach below and above x.
struct ShiftedRow {
  int field = -1, dy = 0, dz = 0, below = 0, above = 0;
};

/// CPU rows: how the x loop runs, and why (kernel/VectorBlocks.cpp decides).
enum class XLoop {
  WholeBlocks,         ///< whole blocks of kW points on vectors, the last, shorter one a point loop
  SeveralPlanes,       ///< a point loop: several output planes per x loop
  PartialSums,         ///< a point loop: the row adds to partial sums
  StagedElsewhere,     ///< a point loop: the row reads table rows another function staged
  NotVectorArithmetic, ///< a point loop: some factor has no lane-by-lane spelling
  NothingToGain,       ///< a point loop: no table it stages, no row read at enough x offsets
};
const char *xLoopReason(XLoop x); // "several output planes per x loop", ...

struct Function {
  std::string name;
  FunctionKind kind = FunctionKind::Row;
  std::string note;
  Params params;
  int outputPlanes = 1;               ///< output planes per x loop (CPU rows)
  XLoop xLoop = XLoop::NothingToGain; ///< CPU rows
  bool wholeBlocks() const { return xLoop == XLoop::WholeBlocks; }
  std::vector<ShiftedRow> shiftedRows; ///< CPU rows with whole blocks: rows cut from vectors
  int ringDzMin = 0, ringDzMax = 0;    ///< partial-sum ring of a marching kernel
  int ringOutputs = 0;                 ///< outputs with partial sums
  int rx = 0, ry = 0;                  ///< CUDA: halo of the shared planes
  /// CUDA: shared planes per staged field. 2: the march copies plane z + 1
  /// into the other buffer asynchronously while plane z computes, with one
  /// barrier per plane (docs/DESIGN.md §Backends).
  int tileBuffers = 1;
  /// CUDA: the shared planes are copied 16 bytes at a time (loadTile<true>) where a block's
  /// tile rows hold whole vectors that start on 16 bytes. Set where the halo keeps rows
  /// aligned (rx points of the element type make whole vectors) and the registers leave
  /// room: the second copy path costs registers, and a kernel that spills spills more.
  bool vectorTiles = false;
  /// CUDA: time steps one launch computes; from 2 on the kernel takes the next
  /// step's arguments too, and keeps each step's levels in rings of 2 rz + 1
  /// shared planes (widened by rx, ry) for the step after it.
  int steps = 1;
  int rz = 0;
  std::vector<Queue> queues; ///< CUDA multi-to-one register queues
  /// CUDA: planes past `high` each register queue holds. With 1 the step of
  /// plane z loads the planes step z + 1 reads, so they are in flight while
  /// plane z computes, and the queues hold every column read from memory.
  int loadAhead = 0;
  /// CUDA: the rows of output points each thread of a march computes, one
  /// kernel per count (template <int kRows>, LaunchOptions::rows): a thread's
  /// rows are blockDim.y apart, so a block covers kRows times its threads in
  /// y and its shared planes' halo rows are loaded once for all of them. Empty:
  /// one row per thread, no such parameter.
  std::vector<int> rowCounts;
  /// CUDA: coefficients (`in` and index fields) through the read-only cache,
  /// and where each (table, row) is read from (absent: read-only cache).
  bool readOnlyCoefficients = false;
  TableSpace tableSpace = TableSpace::Global; ///< rows the placement does not name
  std::map<std::pair<int, int>, RowPlacement> placement;
  std::vector<Node> body;
};

/// One variant of one sweep: its entry function and what it calls.
struct Variant {
  /// naive, blocked, planes (CPU); gmem, ro, traditional, planes, and twostep where a sweep
  /// can take two steps per launch (CUDA)
  std::string name;
  std::string entry;
  std::vector<std::string> functions; ///< every function the entry reaches, callees first
};

struct SweepKernels {
  int sweep = 0;
  std::vector<Function> functions; ///< in the order a printer defines them
  std::vector<Variant> variants;
  const Function *find(const std::string &name) const;
};

/// CUDA: how a step is launched on one architecture where LaunchOptions
/// leaves a value at zero (target/CudaArchs.h); the generated header spells
/// these as kArchDefaults, and the runtime takes the newest one not newer than
/// the GPU it runs on.
struct ArchLaunch {
  std::string arch;          ///< "sm_90"
  int computeCapability = 0; ///< 90
  std::string variant;       ///< where LaunchOptions names none and no tuned launch applies
  int blockX = 0, blockY = 0;
  int planesPerBlock = 0; ///< `nw` of traditional and planes
  int rowsPerThread = 1;  ///< `rows` of the variants with Function::rowCounts
  int sharedBytes = 0;    ///< shared memory a block may use unless the caller says otherwise
  int maxSharedBytes = 0; ///< the architecture's opt-in limit per block
  /// Where variant, block and nw come from where not the architecture's table
  /// (target/CudaArchs.cpp): `gen --machine`'s GPU model; "" otherwise.
  std::string origin;
};

/// CUDA: the most threads a block may have; every kernel is compiled for it
/// (__launch_bounds__, the header's kMaxThreadsPerBlock).
constexpr int kCudaMaxThreadsPerBlock = 256;

/// CUDA: the launch `stencilc tune --backend cuda` measured fastest on one GPU
/// (`gen --tuning`; the header's kTunedLaunches). Where a step runs on a GPU
/// of that name and compute capability, LaunchOptions left at their defaults
/// take it: the variant, and with it its block and nw.
struct TunedLaunch {
  std::string device;        ///< the CUDA runtime's name for the GPU ("NVIDIA H200")
  int computeCapability = 0; ///< 90
  std::string variant;       ///< gmem, ro, traditional, planes
  int blockX = 0, blockY = 0;
  int nw = 0;   ///< 0 for the variants that do not march in z
  int rows = 1; ///< rows per thread: 1 for the variants without Function::rowCounts
  /// Where it comes from, for the header: the tuning file, the date, the speeds measured.
  std::string origin;
};

struct KernelModule {
  Target target = Target::Cpu;
  std::string stencil;
  std::vector<SweepKernels> sweeps;
  /// CUDA: the launch defaults of every architecture, oldest first, and the
  /// one the decomposition was planned for ("" when it was planned for a CPU).
  std::vector<ArchLaunch> launchDefaults;
  std::string plannedArch;
  /// CUDA: tuned launches by GPU, which replace launchDefaults where they apply
  /// (`gen --tuning`; none otherwise).
  std::vector<TunedLaunch> tunedLaunches;
  /// CPU: how the kernels run where their caller gives no options (the
  /// header's kDefaultOptions and kTimeTiling): lower-cpu records the untuned
  /// defaults, `gen --tuning` and `gen --machine` replace them (RunDefaults.h).
  RunDefaults runDefaults;
};

/// CUDA: the variants a step may be launched with (LaunchOptions::variant, the
/// header's Variant), in the header's order; `twostep` is a launch of its own.
const std::vector<std::string> &cudaStepVariants();

/// CUDA: whether a step of `variant` marches planes in z in some sweep (its
/// entry takes nw, Params::planesPerBlock): only then does LaunchOptions::nw
/// change what it launches.
bool marchesInZ(const KernelModule &module, const std::string &variant);

/// CUDA: the rows per thread a step of `variant` may take (LaunchOptions::rows,
/// its entries' Function::rowCounts, the same in every sweep); {1} for a
/// variant without the choice.
std::vector<int> rowCounts(const KernelModule &module, const std::string &variant);

/// CUDA: the rows per thread the lowering instantiates marching kernels with.
const std::vector<int> &cudaRowCounts();

/// "m2" for a plane offset of -2, "p0", "p3": plane offsets inside identifiers.
std::string planeSuffixText(int dz);

/// Why a launch of the CUDA kernels cannot take two time steps (the twostep
/// variant), or "" where it can: one sweep per step, every output a time
/// field's next level.
std::string twoStepReason(const CompiledStencil &compiled);
/// The output of `s` that is the next level of time field `field`, or -1.
int outputAdvancing(const ir::Stencil &s, int field);
/// The time fields whose next level a multi-step CUDA kernel keeps in rings
/// (the fields its ring stores advance), in the order of its stores.
std::vector<int> ringFields(const ir::Stencil &s, const LinearStencil &linear, const Function &f);

/// The kernels of every sweep of `compiled` for `target`, as its sweep plan schedules them.
KernelModule lowerToKernels(const CompiledStencil &compiled, Target target);

/// Checks structure: loops nest with known variables, calls name functions
/// of the sweep, sums name updates and groups of the sweep, every group of a
/// variant is summed where the plan put it, barriers sit only in CUDA kernels
/// outside guards, staged rows are staged before they are read.
bool verifyKernels(const CompiledStencil &compiled, const KernelModule &module,
                   std::vector<std::string> &problems);

/// The module as text, one node per line; `variant` keeps only that variant's functions.
void printKernels(const ir::Stencil &s, const KernelModule &module, llvm::raw_ostream &os,
                  const std::string &variant = "");

/// What the lowering decided and why, one line per decision (--explain).
void explainKernels(const ir::Stencil &s, const KernelModule &module, llvm::raw_ostream &os);

} // namespace stencilc::kernel
