//===- Printer.cpp - Print the IR as readable text ------------------------===//
//
// The dump format, one item per line, two spaces of indent per level:
//
//   stencil ete37: grid 3d, type float, order 8, radius 4
//     field p_next : out overwrites p_prev
//     scalar dt, h
//     symmetry iso = reflect x, reflect y, reflect z, swap x y
//     points S: 37 points, 11 classes, under iso
//       dz=-4: (0,0)#0                     <- (dx,dy)#class, one line per plane
//       class 0: size 2, rep (0,0,-4)      <- first point of the class
//     table C[classes(S)]: 11 rows
//     update p_next = 2 * sum(d in S, C[d.class][vidx] * p_cur[d]) - p_prev
//
// A point set without symmetry says `classes: one per point` instead of
// listing its classes. After `linearize`, each update line is followed by its
// linear form (ir/linear/LinearFormPrinter.cpp).
//
//===----------------------------------------------------------------------===//
#include "ir/Printer.h"

#include "fmt/format.h"

#include <map>

namespace stencilc::ir {

using Kind = Expr::Kind;

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

namespace {

/// Binding strength, as in the grammar: expr < term < unary < primary.
constexpr int SelectPrec = SelectPrecedence, AddPrec = AddPrecedence, UnaryPrec = UnaryPrecedence,
              PrimaryPrec = AtomPrecedence;

template <typename T> std::string nameOf(const std::vector<T> &items, int id, const char *what) {
  if (id >= 0 && id < int(items.size()))
    return items[id].name;
  return fmt::format("<{} #{}>", what, id);
}

std::string numberText(const Expr &e) {
  if (!e.spelling.empty())
    return e.spelling;
  if (e.exact && e.exact->isInteger())
    return e.exact->str();
  return fmt::format("{}", e.number);
}

/// A negative number literal prints with a minus, so it binds like unary minus.
int precedenceOf(const Expr &e) {
  if (e.kind == Kind::Number && numberText(e).starts_with("-"))
    return UnaryPrec;
  return exprPrecedence(e);
}

const char *binaryOperator(Kind k) {
  switch (k) {
  case Kind::Add: return "+";
  case Kind::Sub: return "-";
  case Kind::Mul: return "*";
  default: return "/";
  }
}

class ExprPrinter {
public:
  ExprPrinter(const Stencil &s, llvm::raw_ostream &os) : s_(s), os_(os) {}

  /// Prints `e`, in parentheses if it binds less tightly than `minPrec`.
  void print(const Expr &e, int minPrec) {
    bool parens = precedenceOf(e) < minPrec;
    if (parens)
      os_ << '(';
    printBare(e);
    if (parens)
      os_ << ')';
  }

private:
  std::string varName(const Expr &e) const {
    auto it = vars_.find(e.sumVar);
    if (it != vars_.end())
      return it->second;
    return e.varName.empty() ? fmt::format("d{}", e.sumVar) : e.varName;
  }

  void printBare(const Expr &e) {
    switch (e.kind) {
    case Kind::Number: os_ << numberText(e); return;
    case Kind::ScalarRef: os_ << nameOf(s_.scalars, e.id, "scalar"); return;
    case Kind::FieldRef: printFieldRef(e); return;
    case Kind::TableRef:
      os_ << nameOf(s_.tables, e.id, "table") << '[';
      if (e.sumVar >= 0)
        os_ << varName(e) << (e.rowIsClass ? ".class" : ".point");
      else
        os_ << e.row;
      os_ << "][" << nameOf(s_.fields, e.indexField, "field") << ']';
      return;
    case Kind::Neg:
      os_ << '-';
      // `-(a * b)` is not `-a * b`, and `-(-a)` reads better than `--a`.
      print(*e.operands[0], PrimaryPrec);
      return;
    case Kind::Add:
    case Kind::Sub:
    case Kind::Mul:
    case Kind::Div: {
      int prec = precedenceOf(e);
      print(*e.operands[0], prec);
      os_ << ' ' << binaryOperator(e.kind) << ' ';
      // Operators associate to the left: a right operand of equal strength needs parentheses.
      print(*e.operands[1], prec + 1);
      return;
    }
    case Kind::Call:
      os_ << funcKindName(e.func) << '(';
      print(*e.operands[0], SelectPrec);
      os_ << ')';
      return;
    case Kind::Min:
    case Kind::Max:
      os_ << (e.kind == Kind::Min ? "min(" : "max(");
      print(*e.operands[0], SelectPrec);
      os_ << ", ";
      print(*e.operands[1], SelectPrec);
      os_ << ')';
      return;
    case Kind::Compare:
      // Comparisons do not chain: both sides are additive expressions.
      print(*e.operands[0], AddPrec);
      os_ << ' ' << compareOpSpelling(e.compare) << ' ';
      print(*e.operands[1], AddPrec);
      return;
    case Kind::Select:
      print(*e.operands[0], SelectPrec);
      os_ << " ? ";
      print(*e.operands[1], SelectPrec);
      os_ << " : ";
      print(*e.operands[2], SelectPrec);
      return;
    case Kind::Sum: {
      std::string name = e.varName.empty() ? fmt::format("d{}", e.sumVar) : e.varName;
      os_ << "sum(" << name << " in " << nameOf(s_.pointSets, e.pointSet, "points") << ", ";
      auto saved =
          vars_.find(e.sumVar) != vars_.end() ? std::optional(vars_[e.sumVar]) : std::nullopt;
      vars_[e.sumVar] = name;
      print(*e.operands[0], SelectPrec);
      if (saved)
        vars_[e.sumVar] = *saved;
      else
        vars_.erase(e.sumVar);
      os_ << ')';
      return;
    }
    case Kind::Deriv:
      os_ << derivKindName(e.deriv) << '(' << nameOf(s_.fields, e.id, "field");
      if (e.order > 0)
        os_ << ", " << e.order;
      os_ << ')';
      return;
    }
  }

  void printFieldRef(const Expr &e) {
    os_ << nameOf(s_.fields, e.id, "field");
    bool centre = e.offset == Offset{0, 0, 0};
    if (e.sumVar < 0) {
      if (!centre)
        os_ << offsetToString(s_, e.offset);
      return;
    }
    // The DSL has no syntax for a point plus a constant; the IR allows it, so show both.
    os_ << '[' << varName(e);
    if (!centre)
      os_ << " + " << offsetToString(s_, e.offset);
    os_ << ']';
  }

  const Stencil &s_;
  llvm::raw_ostream &os_;
  std::map<int, std::string> vars_; ///< sum variables bound by the enclosing sums
};

std::string pointText(const Stencil &s, const Offset &o) {
  return s.dims == 2 ? fmt::format("({},{})", o[0], o[1])
                     : fmt::format("({},{},{})", o[0], o[1], o[2]);
}

} // namespace

void printExpr(const Stencil &s, const Expr &e, llvm::raw_ostream &os, int minPrecedence) {
  ExprPrinter(s, os).print(e, minPrecedence);
}

std::string exprToString(const Stencil &s, const Expr &e, int minPrecedence) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printExpr(s, e, os, minPrecedence);
  return os.str();
}

std::string fieldName(const Stencil &s, int id) { return nameOf(s.fields, id, "field"); }

std::string planePointToString(const Offset &o) { return fmt::format("({},{})", o[0], o[1]); }

std::string offsetToString(const Stencil &s, const Offset &o) {
  return s.dims == 2 ? fmt::format("[{},{}]", o[0], o[1])
                     : fmt::format("[{},{},{}]", o[0], o[1], o[2]);
}

//===----------------------------------------------------------------------===//
// Declarations
//===----------------------------------------------------------------------===//

static void printField(const Stencil &s, const Field &f, llvm::raw_ostream &os) {
  os << "  field " << f.name << " : " << fieldRoleName(f.role);
  if (f.role == FieldRole::Index)
    os << ' ' << indexTypeName(f.indexType);
  if (f.role == FieldRole::Output && f.advances >= 0)
    os << " advances " << nameOf(s.fields, f.advances, "field");
  if (f.role == FieldRole::Output && f.overwrites >= 0)
    os << " overwrites " << nameOf(s.fields, f.overwrites, "field");
  os << '\n';
}

static void printSymmetry(const Symmetry &sym, llvm::raw_ostream &os) {
  static const char *const axisNames[] = {"x", "y", "z"};
  auto axis = [](int a) { return a >= 0 && a < 3 ? axisNames[a] : "?"; };
  os << "  symmetry " << sym.name << " =";
  for (size_t i = 0; i < sym.generators.size(); ++i) {
    const SymmetryOp &op = sym.generators[i];
    os << (i ? ", " : " ");
    if (op.kind == SymmetryOp::Reflect)
      os << "reflect " << axis(op.axisA);
    else
      os << "swap " << axis(op.axisA) << ' ' << axis(op.axisB);
  }
  os << '\n';
}

static void printPointSet(const Stencil &s, const PointSet &ps, llvm::raw_ostream &os) {
  os << "  points " << ps.name << ": " << ps.points.size() << " points, " << ps.numClasses
     << " classes";
  if (ps.symmetry >= 0)
    os << ", under " << nameOf(s.symmetries, ps.symmetry, "symmetry");
  os << '\n';
  // Points are sorted by z first, so each plane is a contiguous run.
  for (size_t i = 0; i < ps.points.size();) {
    int dz = ps.points[i][2];
    os << "    dz=" << dz << ':';
    for (; i < ps.points.size() && ps.points[i][2] == dz; ++i) {
      os << ' ' << planePointToString(ps.points[i]) << '#';
      if (i < ps.classOf.size())
        os << ps.classOf[i];
      else
        os << '?';
    }
    os << '\n';
  }
  if (ps.symmetry < 0) {
    os << "    classes: one per point\n";
    return;
  }
  std::vector<int> size(std::max(ps.numClasses, 0), 0);
  std::vector<int> representative(size.size(), -1);
  for (size_t i = 0; i < ps.classOf.size() && i < ps.points.size(); ++i) {
    int c = ps.classOf[i];
    if (c < 0 || c >= int(size.size()))
      continue;
    if (size[c]++ == 0)
      representative[c] = int(i);
  }
  for (size_t c = 0; c < size.size(); ++c) {
    os << "    class " << c << ": size " << size[c] << ", rep ";
    if (representative[c] >= 0)
      os << pointText(s, ps.points[representative[c]]);
    else
      os << "none";
    os << '\n';
  }
}

static void printTable(const Stencil &s, const Table &t, llvm::raw_ostream &os) {
  os << "  table " << t.name << '[';
  switch (t.rowSource) {
  case Table::RowSource::Literal: os << t.rows; break;
  case Table::RowSource::Classes:
    os << "classes(" << nameOf(s.pointSets, t.pointSet, "points") << ')';
    break;
  case Table::RowSource::Points:
    os << "points(" << nameOf(s.pointSets, t.pointSet, "points") << ')';
    break;
  }
  os << "]: " << t.rows << " rows\n";
}

void printDeclarations(const Stencil &s, llvm::raw_ostream &os) {
  os << "stencil " << s.name << ": grid " << s.dims << "d, type " << elemTypeName(s.elemType)
     << ", order ";
  if (s.order > 0)
    os << s.order;
  else
    os << "none";
  os << ", radius " << s.radius << '\n';
  for (const Field &f : s.fields)
    printField(s, f, os);
  if (!s.scalars.empty()) {
    os << "  scalar";
    for (size_t i = 0; i < s.scalars.size(); ++i)
      os << (i ? ", " : " ") << s.scalars[i].name;
    os << '\n';
  }
  for (const Symmetry &sym : s.symmetries)
    printSymmetry(sym, os);
  for (const PointSet &ps : s.pointSets)
    printPointSet(s, ps, os);
  for (const Table &t : s.tables)
    printTable(s, t, os);
}

void printUpdateLine(const Stencil &s, const Update &u, llvm::raw_ostream &os) {
  os << "  update " << nameOf(s.fields, u.output, "field") << " = ";
  if (u.rhs)
    printExpr(s, *u.rhs, os);
  else
    os << "<none>";
  os << '\n';
}

void printStencil(const Stencil &s, llvm::raw_ostream &os) {
  printDeclarations(s, os);
  for (const Update &u : s.updates)
    printUpdateLine(s, u, os);
}

void printModule(const Module &m, llvm::raw_ostream &os) {
  for (size_t i = 0; i < m.stencils.size(); ++i) {
    if (i)
      os << '\n';
    printStencil(m.stencils[i], os);
  }
}

} // namespace stencilc::ir
