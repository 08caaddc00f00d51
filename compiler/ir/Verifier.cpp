//===- Verifier.cpp - Internal consistency checks of the IR ----------------===//
#include "ir/Verifier.h"

#include "ir/CentreReads.h"
#include "ir/PointSetOps.h"

#include "fmt/format.h"

#include <algorithm>
#include <map>

namespace stencilc::ir {

using Kind = Expr::Kind;

namespace {

std::string pointText(const Offset &o) { return fmt::format("({},{},{})", o[0], o[1], o[2]); }

Offset plus(const Offset &a, const Offset &b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }

template <typename T> bool inRange(const std::vector<T> &items, int id) {
  return id >= 0 && id < int(items.size());
}

class StencilVerifier {
public:
  StencilVerifier(const Stencil &s, std::vector<std::string> &problems)
      : s_(s), problems_(problems) {}

  void run() {
    checkHeader();
    checkFields();
    checkSymmetries();
    for (const PointSet &ps : s_.pointSets)
      checkPointSet(ps);
    checkTables();
    checkUpdates();
  }

private:
  template <typename... Args> void problem(fmt::format_string<Args...> f, Args &&...args) {
    problems_.push_back(fmt::format(f, std::forward<Args>(args)...));
  }

  std::string fieldName(int id) const {
    return inRange(s_.fields, id) ? "'" + s_.fields[id].name + "'" : fmt::format("#{}", id);
  }

  void checkHeader();
  void checkFields();
  void checkSymmetries();
  void checkPointSet(const PointSet &ps);
  void checkClasses(const PointSet &ps);
  void checkTables();
  void checkUpdates();
  void checkOffset(const std::string &where, const Offset &o);
  void checkExpr(const Expr &e, const std::string &where);
  /// checkExpr of an operand of `parent`, which may hold a comparison only as a condition.
  void checkExprBelow(const Expr &e, const Expr &parent, const std::string &where);
  void checkFieldRef(const Expr &e, const std::string &where);
  void checkTableRef(const Expr &e, const std::string &where);
  void checkDeriv(const Expr &e, const std::string &where);
  void checkOverwrites(const Field &out);
  void findNonCentreReads(const Expr &e, int field, bool &found);

  const Stencil &s_;
  std::vector<std::string> &problems_;
  std::map<int, int>
      bound_; ///< sum variable -> its point set, for the sums around the current node
};

void StencilVerifier::checkHeader() {
  if (s_.dims != 2 && s_.dims != 3)
    problem("stencil '{}': dims is {}, not 2 or 3", s_.name, s_.dims);
  if (s_.order != 0 && (s_.order < 2 || s_.order % 2 != 0))
    problem("stencil '{}': order {} is not even and >= 2", s_.name, s_.order);
  if (s_.order > 0 && s_.radius != s_.order / 2)
    problem("stencil '{}': radius {} is not order/2 = {}", s_.name, s_.radius, s_.order / 2);
  if (s_.radius < 0)
    problem("stencil '{}': negative radius {}", s_.name, s_.radius);
}

void StencilVerifier::checkFields() {
  for (const Field &f : s_.fields) {
    if (f.advances >= 0) {
      if (f.role != FieldRole::Output)
        problem("field '{}': only an output field may advance a time level", f.name);
      else if (!inRange(s_.fields, f.advances) || s_.fields[f.advances].role != FieldRole::Time)
        problem("field '{}': advances {}, which is not a time field", f.name,
                fieldName(f.advances));
      else if (f.advances == f.overwrites)
        problem("field '{}': advances and overwrites the same field", f.name);
    }
    if (f.overwrites < 0)
      continue;
    if (f.role != FieldRole::Output)
      problem("field '{}': only an output field may overwrite another", f.name);
    else if (!inRange(s_.fields, f.overwrites) || s_.fields[f.overwrites].role != FieldRole::Time)
      problem("field '{}': overwrites {}, which is not a time field", f.name,
              fieldName(f.overwrites));
    else
      checkOverwrites(f);
  }
}

void StencilVerifier::checkSymmetries() {
  for (const Symmetry &sym : s_.symmetries) {
    for (const SymmetryOp &op : sym.generators) {
      if (op.axisA < 0 || op.axisA >= s_.dims ||
          (op.kind == SymmetryOp::Swap && (op.axisB < 0 || op.axisB >= s_.dims)))
        problem("symmetry '{}': axis out of range for a {}d grid", sym.name, s_.dims);
      else if (op.kind == SymmetryOp::Swap && op.axisA == op.axisB)
        problem("symmetry '{}': swap of an axis with itself", sym.name);
    }
  }
}

void StencilVerifier::checkOffset(const std::string &where, const Offset &o) {
  if (s_.dims == 2 && o[2] != 0)
    problem("{}: offset {} has dz != 0 in a 2d stencil", where, pointText(o));
  if (offsetRadius(o) > s_.radius)
    problem("{}: offset {} is outside radius {}", where, pointText(o), s_.radius);
}

void StencilVerifier::checkPointSet(const PointSet &ps) {
  std::string where = "point set '" + ps.name + "'";
  for (size_t i = 0; i < ps.points.size(); ++i) {
    checkOffset(where, ps.points[i]);
    if (i > 0 && !offsetLess(ps.points[i - 1], ps.points[i]))
      problem("{}: points not sorted and unique: {} after {}", where, pointText(ps.points[i]),
              pointText(ps.points[i - 1]));
  }
  if (ps.classOf.size() != ps.points.size()) {
    problem("{}: {} classes for {} points", where, ps.classOf.size(), ps.points.size());
    return;
  }
  // Classes are numbered in order of their first point.
  int next = 0;
  for (size_t i = 0; i < ps.classOf.size(); ++i) {
    int c = ps.classOf[i];
    if (c < 0 || c > next) {
      problem("{}: point {} has class {}, expected at most {} (numbered by first point)", where,
              pointText(ps.points[i]), c, next);
      return;
    }
    if (c == next)
      ++next;
  }
  if (ps.numClasses != next)
    problem("{}: numClasses is {} but {} classes are used", where, ps.numClasses, next);
  checkClasses(ps);
}

void StencilVerifier::checkClasses(const PointSet &ps) {
  std::string where = "point set '" + ps.name + "'";
  if (ps.symmetry < 0) {
    for (size_t i = 0; i < ps.classOf.size(); ++i)
      if (ps.classOf[i] != int(i)) {
        problem("{}: without a symmetry every point is its own class, but {} has class {}", where,
                pointText(ps.points[i]), ps.classOf[i]);
        return;
      }
    return;
  }
  if (!inRange(s_.symmetries, ps.symmetry)) {
    problem("{}: symmetry #{} does not exist", where, ps.symmetry);
    return;
  }
  SymmetryGroup group(s_.symmetries[ps.symmetry], s_.dims);
  if (std::optional<Offset> source = firstMissingImage(ps.points, group)) {
    for (const Offset &image : group.orbit(*source))
      if (!std::binary_search(ps.points.begin(), ps.points.end(), image, offsetLess)) {
        problem("{}: not closed under '{}': missing {}, the image of {}", where,
                s_.symmetries[ps.symmetry].name, pointText(image), pointText(*source));
        break;
      }
    return;
  }
  std::vector<int> orbits;
  orbitClasses(ps.points, group, orbits);
  for (size_t i = 0; i < orbits.size(); ++i)
    if (orbits[i] != ps.classOf[i]) {
      problem("{}: classes are not the orbits of '{}': point {} has class {}, its orbit is {}",
              where, s_.symmetries[ps.symmetry].name, pointText(ps.points[i]), ps.classOf[i],
              orbits[i]);
      return;
    }
}

void StencilVerifier::checkTables() {
  for (const Table &t : s_.tables) {
    std::string where = "table '" + t.name + "'";
    if (t.rowSource == Table::RowSource::Literal) {
      if (t.rows < 1)
        problem("{}: {} rows", where, t.rows);
      continue;
    }
    if (!inRange(s_.pointSets, t.pointSet)) {
      problem("{}: rows follow point set #{}, which does not exist", where, t.pointSet);
      continue;
    }
    const PointSet &ps = s_.pointSets[t.pointSet];
    bool classes = t.rowSource == Table::RowSource::Classes;
    int expected = classes ? ps.numClasses : int(ps.points.size());
    if (t.rows != expected)
      problem("{}: {} rows, but '{}' has {} {}", where, t.rows, ps.name, expected,
              classes ? "classes" : "points");
  }
}

void StencilVerifier::checkUpdates() {
  std::vector<int> writes(s_.fields.size(), 0);
  for (size_t u = 0; u < s_.updates.size(); ++u) {
    const Update &up = s_.updates[u];
    std::string where = fmt::format("update {} ({})", u, fieldName(up.output));
    if (!inRange(s_.fields, up.output) || s_.fields[up.output].role != FieldRole::Output)
      problem("{}: writes {}, which is not an output field", where, fieldName(up.output));
    else
      ++writes[up.output];
    if (!up.rhs) {
      problem("{}: no right-hand side", where);
      continue;
    }
    bound_.clear();
    if (up.rhs->kind == Kind::Compare)
      problem("{}: a comparison outside the condition of '?:'", where);
    checkExpr(*up.rhs, where);
  }
  for (size_t f = 0; f < s_.fields.size(); ++f)
    if (s_.fields[f].role == FieldRole::Output && writes[f] != 1)
      problem("field '{}': output written by {} updates, expected exactly 1", s_.fields[f].name,
              writes[f]);
}

void StencilVerifier::checkExpr(const Expr &e, const std::string &where) {
  if (e.operands.size() != exprArity(e.kind)) {
    problem("{}: expression node with {} operands, expected {}", where, e.operands.size(),
            exprArity(e.kind));
    return;
  }
  for (const ExprPtr &op : e.operands)
    if (!op) {
      problem("{}: null operand", where);
      return;
    }
  switch (e.kind) {
  case Kind::Number: return;
  case Kind::ScalarRef:
    if (!inRange(s_.scalars, e.id))
      problem("{}: scalar #{} does not exist", where, e.id);
    return;
  case Kind::FieldRef: checkFieldRef(e, where); return;
  case Kind::TableRef: checkTableRef(e, where); return;
  case Kind::Sum: {
    if (!inRange(s_.pointSets, e.pointSet)) {
      problem("{}: sum over point set #{}, which does not exist", where, e.pointSet);
      return;
    }
    if (e.sumVar < 0 || bound_.count(e.sumVar)) {
      problem("{}: sum binds variable #{}, which is invalid or already bound", where, e.sumVar);
      return;
    }
    bound_[e.sumVar] = e.pointSet;
    checkExprBelow(*e.operands[0], e, where);
    bound_.erase(e.sumVar);
    return;
  }
  case Kind::Deriv: checkDeriv(e, where); return;
  case Kind::Min:
  case Kind::Max:
  case Kind::Select:
    if (auto read = findNonCentreRead(s_, e))
      problem("{}: '{}' reads what a per-point choice may not: {}", where,
              pointwiseChoiceName(e.kind), read->why);
    if (e.kind == Kind::Select && e.operands[0]->kind != Kind::Compare)
      problem("{}: the condition of '?:' is not a comparison", where);
    for (const ExprPtr &op : e.operands)
      checkExprBelow(*op, e, where);
    return;
  default:
    for (const ExprPtr &op : e.operands)
      checkExprBelow(*op, e, where);
    return;
  }
}

void StencilVerifier::checkExprBelow(const Expr &e, const Expr &parent, const std::string &where) {
  // A comparison has no value of its own (docs/DSL.md "Expressions").
  if (e.kind == Kind::Compare && !(parent.kind == Kind::Select && parent.operands[0].get() == &e))
    problem("{}: a comparison outside the condition of '?:'", where);
  checkExpr(e, where);
}

void StencilVerifier::checkFieldRef(const Expr &e, const std::string &where) {
  if (!inRange(s_.fields, e.id)) {
    problem("{}: field #{} does not exist", where, e.id);
    return;
  }
  const Field &f = s_.fields[e.id];
  if (f.role == FieldRole::Output)
    problem("{}: reads output field '{}'", where, f.name);
  if (f.role == FieldRole::Index)
    problem("{}: index field '{}' read outside a table lookup", where, f.name);
  if (e.sumVar < 0) {
    checkOffset(where + " reading '" + f.name + "'", e.offset);
    return;
  }
  auto it = bound_.find(e.sumVar);
  if (it == bound_.end()) {
    problem("{}: '{}' uses point variable #{} outside a sum binding it", where, f.name, e.sumVar);
    return;
  }
  for (const Offset &p : s_.pointSets[it->second].points)
    checkOffset(where + " reading '" + f.name + "'", plus(p, e.offset));
}

void StencilVerifier::checkTableRef(const Expr &e, const std::string &where) {
  if (!inRange(s_.tables, e.id)) {
    problem("{}: table #{} does not exist", where, e.id);
    return;
  }
  const Table &t = s_.tables[e.id];
  if (!inRange(s_.fields, e.indexField) || s_.fields[e.indexField].role != FieldRole::Index)
    problem("{}: table '{}' looked up with {}, which is not an index field", where, t.name,
            fieldName(e.indexField));
  if (e.sumVar < 0) {
    if (e.row < 0 || e.row >= t.rows)
      problem("{}: row {} of table '{}', which has {} rows", where, e.row, t.name, t.rows);
    return;
  }
  auto it = bound_.find(e.sumVar);
  if (it == bound_.end()) {
    problem("{}: table '{}' uses point variable #{} outside a sum binding it", where, t.name,
            e.sumVar);
    return;
  }
  const PointSet &ps = s_.pointSets[it->second];
  int needed = e.rowIsClass ? ps.numClasses : int(ps.points.size());
  if (needed > t.rows)
    problem("{}: table '{}' has {} rows, but '{}' has {} {}", where, t.name, t.rows, ps.name,
            needed, e.rowIsClass ? "classes" : "points");
}

void StencilVerifier::checkDeriv(const Expr &e, const std::string &where) {
  if (!inRange(s_.fields, e.id)) {
    problem("{}: derivative of field #{}, which does not exist", where, e.id);
    return;
  }
  const Field &f = s_.fields[e.id];
  if (f.role != FieldRole::Time && f.role != FieldRole::Input)
    problem("{}: derivative of {} field '{}'", where, fieldRoleName(f.role), f.name);
  int order = e.order > 0 ? e.order : s_.order;
  if (order < 2 || order % 2 != 0)
    problem("{}: {}('{}') has order {}, not even and >= 2", where, derivKindName(e.deriv), f.name,
            order);
  else if (order / 2 > s_.radius)
    problem("{}: {}('{}') of order {} reaches beyond radius {}", where, derivKindName(e.deriv),
            f.name, order, s_.radius);
  if (derivativeMaxAxis(e.deriv) >= s_.dims)
    problem("{}: {} in a {}d stencil", where, derivKindName(e.deriv), s_.dims);
}

/// Sets `found` if `e` reads `field` anywhere but at the centre point.
void StencilVerifier::findNonCentreReads(const Expr &e, int field, bool &found) {
  if (e.kind == Kind::Deriv && e.id == field)
    found = true;
  if (e.kind == Kind::FieldRef && e.id == field) {
    if (e.sumVar < 0) {
      found |= e.offset != Offset{0, 0, 0};
    } else {
      auto it = bound_.find(e.sumVar);
      if (it != bound_.end())
        for (const Offset &p : s_.pointSets[it->second].points)
          found |= plus(p, e.offset) != Offset{0, 0, 0};
    }
  }
  bool binds = e.kind == Kind::Sum && inRange(s_.pointSets, e.pointSet) && e.sumVar >= 0;
  if (binds)
    bound_[e.sumVar] = e.pointSet;
  for (const ExprPtr &op : e.operands)
    if (op)
      findNonCentreReads(*op, field, found);
  if (binds)
    bound_.erase(e.sumVar);
}

void StencilVerifier::checkOverwrites(const Field &out) {
  for (size_t u = 0; u < s_.updates.size(); ++u) {
    if (!s_.updates[u].rhs)
      continue;
    bool found = false;
    bound_.clear();
    findNonCentreReads(*s_.updates[u].rhs, out.overwrites, found);
    if (found)
      problem("field '{}': overwrites '{}', but update {} reads it away from offset 0", out.name,
              s_.fields[out.overwrites].name, u);
  }
  bound_.clear();
}
} // namespace

bool verifyStencil(const Stencil &s, std::vector<std::string> &problems) {
  size_t before = problems.size();
  StencilVerifier(s, problems).run();
  return problems.size() == before;
}

} // namespace stencilc::ir
