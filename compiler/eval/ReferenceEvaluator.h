//===- ReferenceEvaluator.h - The oracle for every generated kernel --------===//
//
// Interprets a Stencil's updates directly from the expression trees, in
// double precision, one interior point at a time: no linearisation, no
// decomposition, no reordering. Every generated kernel is tested against it,
// so it is written to be obviously right rather than fast.
//
// Data is passed in runtime containers (stencilc/Grid.h, CoefficientTable.h)
// indexed by the IR's ids. All updates read only inputs (outputs are never
// read in a sweep), so the order in which updates run does not matter.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include "stencilc/CoefficientTable.h"
#include "stencilc/Grid.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace stencilc::eval {

/// A binding that does not fit the stencil (missing field, wrong size, halo
/// smaller than the stencil's reach, wrong table height, index value outside
/// the table): the message says which and where.
class EvalError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What a stencil runs on. Every vector is indexed by the IR's ids; entries
/// for ids of another kind are null (e.g. `inputs[id]` of an Output field).
struct EvalBindings {
  /// Time and Input fields, read at interior points plus offsets.
  std::vector<const rt::Grid<double> *> inputs;
  /// Output fields; every interior point is written.
  std::vector<rt::Grid<double> *> outputs;
  /// Index fields, whatever their declared integer type: values must be in [0, Nd).
  std::vector<const rt::Grid<int32_t> *> indexFields;
  /// Tables by table id.
  std::vector<const rt::CoefficientTable<double> *> tables;
  /// Scalars by scalar id.
  std::vector<double> scalars;
};

/// The furthest any update of `stencil` reads a Time or Input field from
/// the output point (max |component| over all offsets, sums and derivative
/// footprints included): the halo the input grids need.
int stencilReach(const ir::Stencil &stencil);

/// Checks `bindings` against `stencil` and throws EvalError if they do not fit.
void checkBindings(const ir::Stencil &stencil, const EvalBindings &bindings);

/// Checks the bindings, then evaluates every update at every interior point
/// of the output grids. Throws EvalError on bad bindings or index values.
void evaluateReference(const ir::Stencil &stencil, const EvalBindings &bindings);

/// Sizes for makeRandomEvalData.
struct EvalSizes {
  int nx = 1, ny = 1, nz = 1; ///< nz must be 1 for a 2D stencil
  int tableColumns = 16;      ///< Nd: the range of index values and the width of every table
  int halo = -1; ///< halo of every grid; -1 = max(stencil.radius, stencilReach(stencil))
};

/// Owns a full set of data for a stencil and lends it out as EvalBindings.
struct EvalData {
  std::vector<ir::FieldRole> roles;                           ///< by field id
  std::vector<std::unique_ptr<rt::Grid<double>>> grids;       ///< Time, Input and Output fields
  std::vector<std::unique_ptr<rt::Grid<int32_t>>> indexGrids; ///< Index fields
  std::vector<std::unique_ptr<rt::CoefficientTable<double>>> tables;
  std::vector<double> scalars;

  EvalBindings bindings();
};

/// Allocates data for `stencil` and fills it reproducibly from `seed`:
/// time fields and halos uniform in [-1, 1), `in` fields uniform in [0.5, 1.5)
/// (material parameters: positive, as updates divide by them), index fields uniform in
/// [0, tableColumns), tables uniform in [-1, 1), scalars uniform in [0.5, 1.5)
/// (away from 0, as they may divide), outputs poisoned with NaN. For a float
/// stencil every value is rounded to float first, so that a float kernel fed
/// the converted data sees exactly the numbers the evaluator sees.
/// Throws EvalError if tableColumns does not fit an index field's type.
EvalData makeRandomEvalData(const ir::Stencil &stencil, const EvalSizes &sizes, uint64_t seed);

} // namespace stencilc::eval
