//===- Kernel.h - What generated kernels take and how they are found -------===//
//
// A generated kernel takes views, not grids: a view is a pointer to the first
// interior point plus the strides of the runtime's padded layout (Grid.h), so
// user code that owns its arrays can call a kernel without copying. Every
// generated kernel also registers a type-erased entry in kernelRegistry(), so
// that tests and `stencilc bench` can drive any kernel through one interface.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/CoefficientTable.h"
#include "stencilc/Grid.h"
#include "stencilc/abi/Neighbours.h"

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stencilc::rt {

/// The three CPU schemes (docs/DSL.md, docs/DESIGN.md §Backends).
enum class Variant {
  Naive,   ///< multi-to-one, one output point at a time; OpenMP over z and y, SIMD along x
  Blocked, ///< the same, tiled in y and z (never in x)
  Planes,  ///< partial-plane accumulation: each input plane read once per tile
  /// naive where the whole planes it reads again in z fit this machine's last-level
  /// cache, blocked where they do not (rt::chooseVariant, stencilc/abi/LayerCondition.h)
  Auto,
};

inline const char *variantName(Variant v) {
  switch (v) {
  case Variant::Naive: return "naive";
  case Variant::Blocked: return "blocked";
  case Variant::Planes: return "planes";
  case Variant::Auto: return "auto";
  }
  return "?";
}

inline std::optional<Variant> parseVariant(std::string_view name) {
  for (Variant v : {Variant::Naive, Variant::Blocked, Variant::Planes, Variant::Auto})
    if (name == variantName(v))
      return v;
  return std::nullopt;
}

/// Interior extent of the grids a kernel sweeps (nz == 1 in 2D).
struct Extent {
  int nx = 1, ny = 1, nz = 1;
};

/// The interior points [x0, x1) x [y0, y1) x [z0, z1) that one kernel call
/// computes. Kernels read neighbours outside the box as usual (they must be
/// valid, as for the whole grid) and write only inside it, so a step can be
/// split into boxes: a boundary shell and an interior for overlapped halo
/// exchange, or the tiles of temporal blocking.
struct Box {
  int x0 = 0, y0 = 0, z0 = 0;
  int x1 = 0, y1 = 0, z1 = 0;
  bool empty() const { return x0 >= x1 || y0 >= y1 || z0 >= z1; }
  long long points() const { return empty() ? 0 : (long long)(x1 - x0) * (y1 - y0) * (z1 - z0); }
};

inline Box wholeBox(const Extent &e) { return {0, 0, 0, e.nx, e.ny, e.nz}; }

inline std::string boxText(const Box &b) {
  // Appended piece by piece: g++ 12 warns (-Wrestrict, falsely) on "literal" + std::string.
  std::string text;
  auto range = [&](int lo, int hi) {
    text += '[';
    text += std::to_string(lo);
    text += ", ";
    text += std::to_string(hi);
    text += ')';
  };
  range(b.x0, b.x1);
  text += " x ";
  range(b.y0, b.y1);
  text += " x ";
  range(b.z0, b.z1);
  return text;
}

struct RunOptions {
  /// Auto unless asked: naive where the planes it reads again fit the last-level
  /// cache, blocked where they do not, since blocked's tiles keep them in L2;
  /// never planes, the slowest where measured (docs/PERFORMANCE.md §Variant by
  /// the layer condition). `stencilc bench --search` measures all three here.
  Variant variant = Variant::Auto;
  int blockY = 0; ///< tile height in y (blocked, planes); 0 = the kernel's default
  int blockZ = 0; ///< tile depth in z (blocked, planes); 0 = the kernel's default
  /// Tile width in x (blocked, planes), rounded up to whole 64-byte lines of
  /// float (rt::chooseRowBlock); 0 = the whole row.
  int blockX = 0;
  /// The points to compute; the whole extent when unset. An empty box computes nothing.
  std::optional<Box> region = std::nullopt;
};

/// How a time-tiled run is cut (TimeTiling.h runs it).
struct TimeTiling {
  int depth = 1; ///< T: time steps per pass over memory (1: single sweeps)
  int tileX = 0; ///< tile extent in x at each level; 0: the whole row
  int tileY = 0; ///< tile extent in y; 0: kTimeTileY (stencilc/abi/TimeTiles.h)
  int tileZ = 0; ///< tile extent in z; 0: by the row length (stencilc/abi/TimeTiles.h; 3D only)
};

/// Point (i, j, k) of a field is origin[i + j * line + k * plane].
template <typename T> struct FieldView {
  T *origin = nullptr;
  std::ptrdiff_t line = 0;
  std::ptrdiff_t plane = 0;

  /// Pointer to (0, j, k).
  T *row(std::ptrdiff_t j, std::ptrdiff_t k) const { return origin + j * line + k * plane; }
};

template <typename T> FieldView<T> view(Grid<T> &g) {
  return {g.origin(), g.lineStride(), g.planeStride()};
}
template <typename T> FieldView<const T> view(const Grid<T> &g) {
  return {g.origin(), g.lineStride(), g.planeStride()};
}

/// The same storage, writable: for rotating time levels, whose storage the
/// caller owns and has already handed out as writable output.
template <typename T> FieldView<T> writableView(const FieldView<const T> &v) {
  return {const_cast<T *>(v.origin), v.line, v.plane};
}
template <typename T> FieldView<const T> readOnlyView(const FieldView<T> &v) {
  return {v.origin, v.line, v.plane};
}

/// Element (r, c) of a table is data[r * rowStride + c * colStride].
template <typename T> struct TableView {
  const T *data = nullptr;
  std::ptrdiff_t rowStride = 0;
  std::ptrdiff_t colStride = 0;
  int rows = 0;
  int cols = 0;
  /// The data is already in rt::PackedTable's layout (rowStride 1, colStride
  /// the rows rounded up to 16, padding rows zero, 64-byte aligned), so the
  /// kernel uses it in place instead of packing it again: set by the runtime
  /// for its own packed copies (rt::PackedTable::view), never needed otherwise.
  bool packed = false;
};

template <typename T> TableView<T> view(const CoefficientTable<T> &t) {
  return {t.data(), t.rowStride(), t.colStride(), t.rows(), t.cols()};
}

/// Thrown by a kernel whose arguments do not fit its stencil.
class KernelError : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

/// The box a call computes: `region`, or the whole extent. Throws KernelError
/// naming the box when it does not lie inside the extent.
inline Box regionOf(const char *kernel, const Extent &e, const std::optional<Box> &region) {
  if (!region)
    return wholeBox(e);
  const Box &b = *region;
  if (b.x0 < 0 || b.y0 < 0 || b.z0 < 0 || b.x1 > e.nx || b.y1 > e.ny || b.z1 > e.nz ||
      b.x0 > b.x1 || b.y0 > b.y1 || b.z0 > b.z1) {
    std::string message = kernel;
    message += ": region ";
    message += boxText(b);
    message += " is not inside the extent ";
    message += std::to_string(e.nx);
    message += " x ";
    message += std::to_string(e.ny);
    message += " x ";
    message += std::to_string(e.nz);
    throw KernelError(message);
  }
  return b;
}

//===----------------------------------------------------------------------===//
// Type-erased entry points, for tests and benchmarks
//===----------------------------------------------------------------------===//

/// A field view of any element type.
struct ErasedField {
  void *origin = nullptr;
  std::ptrdiff_t line = 0;
  std::ptrdiff_t plane = 0;
};

struct ErasedTable {
  const void *data = nullptr;
  std::ptrdiff_t rowStride = 0;
  std::ptrdiff_t colStride = 0;
  int rows = 0;
  int cols = 0;
  bool packed = false; ///< as TableView::packed
};

/// `v` without its element type, and back: the caller names the type.
template <typename T> ErasedTable erasedTable(const TableView<T> &v) {
  return {v.data, v.rowStride, v.colStride, v.rows, v.cols, v.packed};
}
template <typename T> TableView<T> tableView(const ErasedTable &t) {
  return {static_cast<const T *>(t.data), t.rowStride, t.colStride, t.rows, t.cols, t.packed};
}

/// Arguments by the stencil's ids: fields in declaration order (every role),
/// tables and scalars likewise.
struct ErasedArgs {
  Extent extent;
  std::vector<ErasedField> fields;
  std::vector<ErasedTable> tables;
  std::vector<double> scalars;
};

struct KernelFieldInfo {
  const char *name;
  const char *role; ///< "time", "in", "index", "out"
  const char *type; ///< "float", "double", "uint8", "uint16", "int32"
  int overwrites;   ///< Output: the field id it may overwrite in place, or -1
  int advances;     ///< Output: the field id whose next level it is, or -1
  /// How far the stencil reads the field below and above a point on each
  /// axis: {x-, x+, y-, y+, z-, z+} (all 0 for a field read only at the point).
  int reach[6];
  /// The neighbour directions (dx, dy, dz) in {-1, 0, 1}^3 its reads reach,
  /// bit neighbourBit(dx, dy, dz) each. A star reaches the six faces only.
  unsigned neighbours;
};

/// Bytes per element of the type named `type` (KernelFieldInfo::type,
/// KernelInfo::elemType); std::invalid_argument for a name not listed there.
inline int elementBytesOf(std::string_view type) {
  if (type == "double")
    return 8;
  if (type == "float" || type == "int32")
    return 4;
  if (type == "uint16")
    return 2;
  if (type == "uint8")
    return 1;
  throw std::invalid_argument("unknown element type '" + std::string(type) + "'");
}

struct KernelTableInfo {
  const char *name;
  int rows;
};

struct KernelInfo {
  const char *name;     ///< the kernel's name (the stencil's, unless renamed)
  const char *stencil;  ///< the stencil it was generated from
  const char *elemType; ///< "float" or "double"
  int dims;
  int radius;
  int sweeps; ///< sub-stencil sweeps per step
  std::vector<KernelFieldInfo> fields;
  std::vector<KernelTableInfo> tables;
  std::vector<const char *> scalars;
  void (*run)(const ErasedArgs &, const RunOptions &);
  /// The options the kernel's own run() takes when given none (its header's
  /// kDefaultOptions): the pick of a tuning file for the machine it was
  /// generated for (`stencilc gen --tuning`, docs/PERFORMANCE.md "Tuning"),
  /// else RunOptions{}.
  RunOptions defaults = {};
  /// Time steps per pass, and tiles, for callers of runTimeTiled (the
  /// header's kTimeTiling): the tuning file's pick, else the model's (`gen
  /// --machine`), else the untuned default (docs/PERFORMANCE.md "Tuning").
  /// This struct's own default is depth 1: single sweeps.
  TimeTiling timeTiling = {};
};

/// Every kernel linked into the program, in static-initialisation order.
inline std::vector<const KernelInfo *> &kernelRegistry() {
  static std::vector<const KernelInfo *> registry;
  return registry;
}

inline const KernelInfo *findKernel(std::string_view name) {
  for (const KernelInfo *k : kernelRegistry())
    if (name == k->name)
      return k;
  return nullptr;
}

/// A generated kernel's static object that adds it to the registry.
struct KernelRegistration {
  explicit KernelRegistration(const KernelInfo &info) { kernelRegistry().push_back(&info); }
};

} // namespace stencilc::rt
