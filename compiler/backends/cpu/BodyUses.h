//===- BodyUses.h - What a CPU row function's body reads ------------------===//
//
// While the CPU printer walks a row function's statements, BodyUses spells
// each read (a point loop's `u[x - 4]`, a whole block's `rt::load` or
// `rt::shifted`) and records which fields, strides, scalars and tables the
// body used, so that the function's prologue declares exactly those. Only
// CpuEmitter.cpp includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "backends/CExpr.h"
#include "backends/KernelAbi.h"
#include "backends/KernelNames.h"
#include "kernel/KernelIR.h"

#include <fmt/format.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace stencilc::backend::cpu_printer {

using ir::FieldRole;
using ir::Offset;

/// Rows of a table's staging buffer per output plane: rt::loadColumns writes
/// whole blocks of 4 or 8 rows.
inline int stagedRows(const ir::Table &table) { return (table.rows + 7) / 8 * 8; }

/// Records which fields, tables and scalars a body uses, so that its prologue
/// declares exactly those.
class BodyUses {
public:
  BodyUses(const ir::Stencil &s, const KernelNames &names) : s_(s), names_(names) {}

  /// Subsequent reads are for output plane z + k of a body that computes
  /// several planes: offsets stay relative to the row pointers at (y, z), so
  /// a point two outputs share is the same expression, loaded once.
  void setPlaneShift(int k) {
    shift_ = k;
    coefSuffix_.clear();
  }

  /// Subsequent reads are for the output row dz planes below the input row
  /// (y, z) of a planes-scheme scatter: offsets shift by -dz, so the points
  /// the outputs share are one expression, and table coefficients come from
  /// that output's staged rows, `<column><suffix>`, instead.
  void setScatterOutput(int dz, const std::string &coefSuffix) {
    shift_ = -dz;
    coefSuffix_ = coefSuffix;
  }

  /// Subsequent reads are whole vectors of kW points (rt::Vec) from x on, and
  /// table coefficients the registers a block's transpose filled; the rows
  /// `shifted` names are cut from whole vectors (kernel::Function::shiftedRows).
  void setVector(bool vector, const std::vector<kernel::ShiftedRow> *shifted = nullptr) {
    vector_ = vector;
    shifted_ = vector ? shifted : nullptr;
  }
  bool vector() const { return vector_; }

  /// A read: `u[x - 4]` in a point loop; in a whole block `rt::load(u + x - 4)`,
  /// or `rt::shifted<-4, 4, 4>(u + x)` (the offset, then how far the row's
  /// reads reach below and above x) where shiftsRow says so.
  std::string access(int field, Offset o) {
    if (!vector_)
      return fmt::format("{}[{}]", names_.field(field), index(field, o));
    const kernel::ShiftedRow *row = o[0] == 0 ? nullptr : shiftedRow(field, o);
    if (!row)
      return fmt::format("rt::load({})", pointer(field, o));
    const int dx = o[0];
    o[0] = 0;
    return fmt::format("rt::shifted<{}, {}, {}>({})", dx, row->below, row->above,
                       pointer(field, o));
  }

  /// The row of `field` at o (y and z) a whole block cuts from whole vectors, or null.
  const kernel::ShiftedRow *shiftedRow(int field, const Offset &o) const {
    if (!shifted_)
      return nullptr;
    const auto [f, dy, dz] = rowOf(field, o);
    for (const kernel::ShiftedRow &row : *shifted_)
      if (row.field == f && row.dy == dy && row.dz == dz)
        return &row;
    return nullptr;
  }

  /// The address of the point at offset `o`: `p_cur + x - 4 * p_cur_plane`.
  std::string pointer(int field, Offset o) {
    return fmt::format("{} + {}", names_.field(field), index(field, o));
  }

  CExprNames exprNames() {
    CExprNames n;
    n.scalar = [this](int id) {
      scalars_.insert(id);
      return names_.scalar(id);
    };
    n.field = [this](int id, const Offset &o) { return access(id, o); };
    n.table = [this](int table, int row, int index) {
      columns_.insert({table, index});
      fields_.insert(index);
      std::string name = names_.tableColumn(table, index) + coefSuffix_;
      stagedNames_.insert(name);
      if (vector_)
        return fmt::format("{}[{}]", name, row); // rt::transposeColumns' registers
      if (!coefSuffix_.empty())
        return fmt::format("{}[{} * kW + l]", name, row);
      if (shift_)
        planes_.insert(index); // staged from the index row shift_ planes up
      // Staged coefficients: row r of lane l, after the rows of the planes below
      // (see rowFunction).
      return fmt::format("{}[{} * kW + l]", name, shift_ * stagedRows(s_.tables[table]) + row);
    };
    return n;
  }

  /// Declarations before the x loop: row pointers at (y, z), strides, scalars.
  /// Index fields are left out with `stagedTables`: the coefficients they
  /// select were staged before.
  std::string prologue(const std::set<int> &outputs, bool stagedTables = false) const {
    std::string out;
    for (int f : fields_) {
      const ir::Field &field = s_.fields[f];
      if (stagedTables && field.role == FieldRole::Index)
        continue;
      bool writable = outputs.count(f) != 0;
      out += fmt::format("  {}{} *{} = args.{}.row(y, z);\n", writable ? "" : "const ",
                         fieldElementType(field), names_.field(f), names_.field(f));
    }
    for (int f : lines_)
      out += fmt::format("  const std::ptrdiff_t {} = args.{}.line;\n", names_.line(f),
                         names_.field(f));
    for (int f : planes_)
      out += fmt::format("  const std::ptrdiff_t {} = args.{}.plane;\n", names_.plane(f),
                         names_.field(f));
    for (int sc : scalars_)
      out += fmt::format("  const Real {} = args.{};\n", names_.scalar(sc), names_.scalar(sc));
    for (size_t i = 0; i < invariants_.size(); ++i)
      out += fmt::format("  const Real invariant{} = {}; // the same at every point\n", i,
                         invariants_[i]);
    return out;
  }

  /// The name of a row constant holding `text` (scalars and numbers only).
  std::string invariant(const std::string &text) {
    for (size_t i = 0; i < invariants_.size(); ++i)
      if (invariants_[i] == text)
        return fmt::format("invariant{}", i);
    invariants_.push_back(text);
    return fmt::format("invariant{}", invariants_.size() - 1);
  }

  bool usesTables() const { return !columns_.empty(); }
  /// Does the body read the staged coefficients named `name` (a table column
  /// plus the setScatterOutput suffix)?
  bool readsStaged(const std::string &name) const { return stagedNames_.count(name) != 0; }
  void addField(int f) { fields_.insert(f); }

private:
  /// The row a read at offset `o` is in: field, y and z offsets.
  std::tuple<int, int, int> rowOf(int field, const Offset &o) const {
    return {field, o[1], o[2] + shift_};
  }

  /// The element of the row at (y, z) that offset `o` reads: `x - 4 * p_cur_plane`.
  std::string index(int field, Offset o) {
    o[2] += shift_;
    fields_.insert(field);
    std::string address = "x";
    if (o[0])
      address += fmt::format(" {} {}", o[0] < 0 ? '-' : '+', std::abs(o[0]));
    auto stride = [&](int n, const std::string &name) {
      if (n == 0)
        return;
      address += fmt::format(" {} ", n < 0 ? '-' : '+');
      address += std::abs(n) == 1 ? name : fmt::format("{} * {}", std::abs(n), name);
    };
    if (o[1]) {
      lines_.insert(field);
      stride(o[1], names_.line(field));
    }
    if (o[2]) {
      planes_.insert(field);
      stride(o[2], names_.plane(field));
    }
    return address;
  }

  const ir::Stencil &s_;
  const KernelNames &names_;
  std::set<int> fields_, lines_, planes_, scalars_;
  std::set<std::pair<int, int>> columns_;
  std::set<std::string> stagedNames_;
  std::string coefSuffix_;
  std::vector<std::string> invariants_; ///< products of scalar factors, computed once per row
  int shift_ = 0;
  bool vector_ = false;
  const std::vector<kernel::ShiftedRow> *shifted_ = nullptr;
};

} // namespace stencilc::backend::cpu_printer
