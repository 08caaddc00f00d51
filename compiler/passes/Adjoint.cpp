//===- Adjoint.cpp - The exact adjoint of a linear time-stepping update ----===//
#include "passes/Adjoint.h"

#include "ir/CentreReads.h"
#include "ir/Printer.h"
#include "passes/Linearize.h"
#include "stencilc/abi/FieldNames.h"

#include <fmt/format.h>

#include <map>

namespace stencilc {

namespace {

using ir::Expr;
using ir::ExprPtr;
using Kind = ir::Expr::Kind;

ir::Offset minus(const ir::Offset &o) { return {-o[0], -o[1], -o[2]}; }
ir::Offset plus(const ir::Offset &a, const ir::Offset &b) {
  return {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
}

/// Where a time level sits in the recurrence: family i's current level
/// (the one output i advances) or its previous one (the one it overwrites).
struct Level {
  int family = -1; ///< index of the update whose output advances the family
  bool previous = false;
};

class AdjointBuilder {
public:
  AdjointBuilder(const ir::Stencil &s, const LinearStencil &linear, DiagnosticEngine &diag)
      : s_(s), linear_(linear), diag_(diag) {}

  std::optional<ir::Stencil> build() {
    if (!mapLevels())
      return std::nullopt;
    ir::Stencil a = header();
    for (size_t j = 0; j < linear_.updates.size(); ++j) {
      ir::Update u;
      u.output = linear_.updates[j].output;
      u.loc = s_.updates[j].loc;
      u.rhs = adjointOf(int(j), a);
      if (!u.rhs)
        return std::nullopt;
      a.updates.push_back(std::move(u));
    }
    int reach = a.radius;
    for (const ir::Update &u : a.updates)
      reach = std::max(reach, maxOffset(*u.rhs));
    // A coefficient read at a shifted neighbour may reach further than the forward step did.
    if (reach > a.radius) {
      a.radius = reach;
      if (a.order > 0)
        a.order = 2 * reach;
    }
    return a;
  }

private:
  /// The family and lag of every time level, from the outputs' `advances`
  /// and `overwrites`; reports what does not fit a recurrence.
  bool mapLevels() {
    family_.assign(s_.fields.size(), Level{});
    bool ok = true;
    for (size_t i = 0; i < linear_.updates.size(); ++i) {
      const ir::Field &out = s_.fields[size_t(linear_.updates[i].output)];
      if (out.advances < 0) {
        diag_.error(out.loc, "cannot derive the adjoint of '" + s_.name + "': output '" + out.name +
                                 "' does not say which time level it advances ('advances F')");
        ok = false;
        continue;
      }
      family_[size_t(out.advances)] = {int(i), false};
      if (out.overwrites >= 0)
        family_[size_t(out.overwrites)] = {int(i), true};
    }
    for (size_t f = 0; f < s_.fields.size() && ok; ++f)
      if (s_.fields[f].role == ir::FieldRole::Time && family_[f].family < 0) {
        diag_.error(s_.fields[f].loc,
                    "cannot derive the adjoint of '" + s_.name + "': time level '" +
                        s_.fields[f].name +
                        "' is neither advanced nor overwritten by an output, so its place in the "
                        "time recurrence is unknown");
        ok = false;
      }
    for (size_t i = 0; i < linear_.updates.size() && ok; ++i)
      if (linear_.updates[i].pointwise) {
        diag_.error(s_.updates[i].loc,
                    "cannot derive the adjoint of '" + s_.name + "': the update of '" +
                        s_.fields[size_t(linear_.updates[i].output)].name +
                        "' has a part that reads no time level (it is affine, not linear)");
        ok = false;
      }
    return ok;
  }

  /// The stencil's declarations, renamed; updates are added by build().
  ir::Stencil header() const {
    ir::Stencil a;
    a.name = s_.name + "_adjoint";
    a.loc = s_.loc;
    a.dims = s_.dims;
    a.elemType = s_.elemType;
    a.order = s_.order;
    a.radius = s_.radius;
    a.radiusDeclared = s_.radiusDeclared;
    a.fields = s_.fields;
    a.scalars = s_.scalars;
    a.symmetries = s_.symmetries;
    a.pointSets = s_.pointSets;
    a.tables = s_.tables;
    // The planner plans the adjoint afresh: a forced split may not fit its groups.
    return a;
  }

  /// The adjoint update of family j: every forward term that reads family
  /// j's levels, transposed.
  ExprPtr adjointOf(int j, ir::Stencil &a) {
    ExprPtr sum;
    for (size_t i = 0; i < linear_.updates.size(); ++i) {
      const LinearForm &form = linear_.updates[i];
      const ir::Field &out = s_.fields[size_t(form.output)];
      for (const Term &t : form.terms) {
        const Level level = family_[size_t(t.field)];
        if (level.family != j)
          continue;
        const int adjoint = level.previous ? out.overwrites : out.advances;
        if (adjoint < 0) {
          diag_.error(s_.updates[i].loc,
                      "cannot derive the adjoint of '" + s_.name + "': the update of '" + out.name +
                          "' reads '" + s_.fields[size_t(t.field)].name +
                          "', a previous time level, but overwrites none of its own, so the "
                          "adjoint has no level to keep its older values in");
          return nullptr;
        }
        const ir::Offset back = minus(t.offset);
        const llvm::SMLoc loc = s_.updates[i].loc;
        // |c| · f(x − o) · λ(x − o); the sign goes on the sum.
        ExprPtr product = t.coef.abs().isOne() ? nullptr : number(t.coef.abs(), loc);
        for (const ExprPtr &f : t.factors) {
          ExprPtr shifted = shift(*f, back, a);
          if (!shifted)
            return nullptr;
          product = product ? binary(Kind::Mul, std::move(product), std::move(shifted), loc)
                            : std::move(shifted);
        }
        auto read = std::make_unique<Expr>(Kind::FieldRef, loc);
        read->id = adjoint;
        read->offset = back;
        product =
            product ? binary(Kind::Mul, std::move(product), std::move(read), loc) : std::move(read);
        const bool negative = t.coef.value() < 0;
        if (!sum)
          sum = negative ? unary(Kind::Neg, std::move(product), loc) : std::move(product);
        else
          sum = binary(negative ? Kind::Sub : Kind::Add, std::move(sum), std::move(product), loc);
      }
    }
    if (!sum)
      sum = number(Coefficient(Rational(0)), s_.updates[size_t(j)].loc);
    return sum;
  }

  /// `e` read at `by` from where it was: fields at their offset plus `by`,
  /// table lookups through the index field shifted by `by`.
  ExprPtr shift(const Expr &e, const ir::Offset &by, ir::Stencil &a) {
    ExprPtr copy = e.clone();
    return shiftInPlace(std::move(copy), by, a) ? std::move(copy) : nullptr;
  }

  bool shiftInPlace(const ExprPtr &e, const ir::Offset &by, ir::Stencil &a) {
    if (ir::isPointwiseChoice(e->kind) && by != ir::Offset{0, 0, 0}) {
      // Its shifted reads would be neighbour reads inside min/max/?:, which the DSL refuses.
      diag_.error(e->loc, fmt::format("cannot derive the adjoint of '{}': the transpose reads the "
                                      "coefficient '{}' at ({},{},{}), and '{}' may only read "
                                      "centre values (docs/DSL.md \"Adjoint\")",
                                      s_.name, ir::exprToString(s_, *e), by[0], by[1], by[2],
                                      ir::pointwiseChoiceName(e->kind)));
      return false;
    }
    if (e->kind == Kind::FieldRef)
      e->offset = plus(e->offset, by);
    if (e->kind == Kind::TableRef && e->indexField >= 0 && by != ir::Offset{0, 0, 0}) {
      const int shifted = shiftedIndex(e->indexField, by, a);
      if (shifted < 0)
        return false;
      e->indexField = shifted;
    }
    for (const ExprPtr &op : e->operands)
      if (!shiftInPlace(op, by, a))
        return false;
    return true;
  }

  /// The index field that reads `field` at `by` (declared on first use).
  int shiftedIndex(int field, const ir::Offset &by, ir::Stencil &a) {
    auto [it, fresh] = shifted_.try_emplace({field, by}, -1);
    if (!fresh)
      return it->second;
    const ir::Field &base = s_.fields[size_t(field)];
    const std::string name = rt::shiftedFieldName(base.name, by);
    if (a.findField(name) >= 0) {
      diag_.error(a.fields[size_t(a.findField(name))].loc,
                  "cannot derive the adjoint of '" + s_.name + "': it needs '" + base.name +
                      "' shifted as a field named '" + name + "', a name this stencil uses");
      return -1;
    }
    ir::Field f = base;
    f.name = name;
    a.fields.push_back(f);
    it->second = int(a.fields.size()) - 1;
    return it->second;
  }

  static int maxOffset(const Expr &e) {
    int r = e.kind == Kind::FieldRef ? ir::offsetRadius(e.offset) : 0;
    for (const ExprPtr &op : e.operands)
      r = std::max(r, maxOffset(*op));
    return r;
  }

  static ExprPtr number(const Coefficient &c, llvm::SMLoc loc) {
    auto e = std::make_unique<Expr>(Kind::Number, loc);
    e->number = c.value();
    e->exact = c.exact();
    e->spelling = c.str(); // "1/560" reads back as the same value
    return e;
  }
  static ExprPtr unary(Kind k, ExprPtr a, llvm::SMLoc loc) {
    auto e = std::make_unique<Expr>(k, loc);
    e->operands.push_back(std::move(a));
    return e;
  }
  static ExprPtr binary(Kind k, ExprPtr a, ExprPtr b, llvm::SMLoc loc) {
    auto e = std::make_unique<Expr>(k, loc);
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }

  const ir::Stencil &s_;
  const LinearStencil &linear_;
  DiagnosticEngine &diag_;
  std::vector<Level> family_;
  std::map<std::pair<int, ir::Offset>, int> shifted_;
};

} // namespace

std::optional<ir::Stencil> adjointStencil(const ir::Stencil &stencil, const LinearStencil &linear,
                                          DiagnosticEngine &diag) {
  return AdjointBuilder(stencil, linear, diag).build();
}

std::optional<ir::Module> adjointModule(const ir::Module &module, DiagnosticEngine &diag) {
  ir::Module out;
  out.fileName = module.fileName;
  bool ok = true;
  for (const ir::Stencil &s : module.stencils) {
    auto linear = linearize(s, diag);
    if (!linear) {
      ok = false;
      continue;
    }
    auto adjoint = adjointStencil(s, *linear, diag);
    if (!adjoint) {
      ok = false;
      continue;
    }
    out.stencils.push_back(std::move(*adjoint));
  }
  if (!ok)
    return std::nullopt;
  return out;
}

bool isSelfAdjoint(const LinearStencil &forward, const LinearStencil &adjoint) {
  if (forward.updates.size() != adjoint.updates.size())
    return false;
  for (size_t u = 0; u < forward.updates.size(); ++u) {
    const LinearForm &f = forward.updates[u], &a = adjoint.updates[u];
    if (f.output != a.output || f.terms.size() != a.terms.size())
      return false;
    for (size_t t = 0; t < f.terms.size(); ++t)
      if (f.terms[t].field != a.terms[t].field || f.terms[t].offset != a.terms[t].offset ||
          f.terms[t].coef != a.terms[t].coef ||
          factorsKey(f.terms[t].factors) != factorsKey(a.terms[t].factors))
        return false;
  }
  return true;
}

} // namespace stencilc
