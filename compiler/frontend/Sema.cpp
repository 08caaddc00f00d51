//===- Sema.cpp - Whole-stencil semantic checks ----------------------------===//
#include "frontend/Sema.h"

#include "ir/CentreReads.h"

#include <fmt/format.h>

#include <functional>
#include <map>
#include <set>

namespace stencilc {

using ir::Expr;
using ir::FieldRole;

namespace {

std::string offsetText(const ir::Offset &o, int dims) {
  return dims == 2 ? fmt::format("({},{})", o[0], o[1])
                   : fmt::format("({},{},{})", o[0], o[1], o[2]);
}

class StencilChecker {
public:
  StencilChecker(ir::Stencil &s, DiagnosticEngine &diag) : s_(s), diag_(diag) {}

  bool run() {
    unsigned before = diag_.errorCount();
    resolveDerivativeOrders();
    checkRadius();
    checkOutputsWritten();
    checkInPlaceOverwrites();
    checkPlan();
    for (const ir::Update &u : s_.updates)
      checkLinear(*u.rhs);
    return diag_.errorCount() == before;
  }

private:
  void forEachExpr(const std::function<void(Expr &)> &fn) {
    std::function<void(Expr &)> walk = [&](Expr &e) {
      fn(e);
      for (ir::ExprPtr &op : e.operands)
        walk(*op);
    };
    for (ir::Update &u : s_.updates)
      walk(*u.rhs);
  }

  void resolveDerivativeOrders() {
    forEachExpr([&](Expr &e) {
      if (e.kind != Expr::Kind::Deriv || e.order != 0)
        return;
      if (s_.order == 0) {
        std::string name = ir::derivKindName(e.deriv);
        diag_.error(e.loc, "'" + name + "' needs an accuracy order: write '" + name + "(" +
                               s_.fields[e.id].name + ", N)' or declare 'order N;'");
        e.order = 2; // keep checking the rest with a harmless value
        return;
      }
      e.order = s_.order;
    });
  }

  /// How far from the output point an expression node reads.
  int reach(const Expr &e) const {
    switch (e.kind) {
    case Expr::Kind::FieldRef:
      if (e.sumVar >= 0)
        return sumSetRadius(e.sumVar);
      return ir::offsetRadius(e.offset);
    case Expr::Kind::Deriv: return e.order / 2;
    default: return 0;
    }
  }

  int sumSetRadius(int var) const {
    auto it = sumSets_.find(var);
    if (it == sumSets_.end())
      return 0;
    int r = 0;
    for (const ir::Offset &o : s_.pointSets[it->second].points)
      r = std::max(r, ir::offsetRadius(o));
    return r;
  }

  void checkRadius() {
    forEachExpr([&](Expr &e) {
      if (e.kind == Expr::Kind::Sum)
        sumSets_[e.sumVar] = e.pointSet;
    });
    int derived = 0;
    forEachExpr([&](Expr &e) {
      int r = reach(e);
      derived = std::max(derived, r);
      if (!s_.radiusDeclared || r <= s_.radius)
        return;
      std::string what;
      if (e.kind == Expr::Kind::Deriv)
        what = fmt::format("'{}' of order {} reads {} points from the centre",
                           ir::derivKindName(e.deriv), e.order, r);
      else if (e.sumVar >= 0)
        what = fmt::format("point set '{}' reaches {} points from the centre",
                           s_.pointSets[sumSets_[e.sumVar]].name, r);
      else
        what =
            fmt::format("offset {} is {} points from the centre", offsetText(e.offset, s_.dims), r);
      diag_.error(e.loc, fmt::format("{}, beyond the radius {} that 'order {}' allows", what,
                                     s_.radius, s_.order));
    });
    // A point set that no read goes through (a sum whose body ignores its
    // variable) still has to fit in the radius: the kernels' halo covers it.
    std::set<int> readSets;
    forEachExpr([&](Expr &e) {
      if (e.kind == Expr::Kind::FieldRef && e.sumVar >= 0 && sumSets_.count(e.sumVar))
        readSets.insert(sumSets_[e.sumVar]);
    });
    for (size_t p = 0; p < s_.pointSets.size(); ++p) {
      if (readSets.count(int(p)))
        continue;
      const ir::PointSet &set = s_.pointSets[p];
      int r = 0;
      for (const ir::Offset &o : set.points)
        r = std::max(r, ir::offsetRadius(o));
      derived = std::max(derived, r);
      if (s_.radiusDeclared && r > s_.radius)
        diag_.error(set.loc,
                    fmt::format("point set '{}' reaches {} points from the centre, beyond the "
                                "radius {} that 'order {}' allows",
                                set.name, r, s_.radius, s_.order));
    }
    if (!s_.radiusDeclared)
      s_.radius = derived;
  }

  void checkOutputsWritten() {
    if (s_.updates.empty()) {
      diag_.error(s_.loc, "stencil '" + s_.name +
                              "' has no update rule; add one like 'out = "
                              "expression;'");
      return;
    }
    for (size_t f = 0; f < s_.fields.size(); ++f) {
      if (s_.fields[f].role != FieldRole::Output)
        continue;
      bool written = false;
      for (const ir::Update &u : s_.updates)
        written |= u.output == int(f);
      if (!written)
        diag_.error(s_.fields[f].loc, "output field '" + s_.fields[f].name +
                                          "' is never assigned; add an update '" +
                                          s_.fields[f].name + " = expression;'");
    }
  }

  /// `plan tables` places coefficient tables; a stencil without one has nothing to place.
  void checkPlan() {
    if (s_.plan.tablesLoc.isValid() && s_.tables.empty())
      diag_.error(s_.plan.tablesLoc,
                  "'plan tables' in stencil '" + s_.name + "', which declares no table to place");
  }

  void checkInPlaceOverwrites() {
    for (const ir::Field &out : s_.fields) {
      if (out.overwrites < 0)
        continue;
      const std::string &target = s_.fields[out.overwrites].name;
      std::string why = "'" + out.name + "' overwrites '" + target + "' in place, so '" + target +
                        "' may only be read at the centre";
      forEachExpr([&](Expr &e) {
        if (e.id != out.overwrites)
          return;
        if (e.kind == Expr::Kind::Deriv)
          diag_.error(e.loc, why + "; here it is differentiated");
        else if (e.kind == Expr::Kind::FieldRef && e.sumVar >= 0)
          diag_.error(e.loc, why + "; here it is read at the points of a sum");
        else if (e.kind == Expr::Kind::FieldRef && e.offset != ir::Offset{0, 0, 0})
          diag_.error(e.loc, why + "; here it is read at " + offsetText(e.offset, s_.dims));
      });
    }
  }

  bool readsTime(const Expr &e) const {
    if ((e.kind == Expr::Kind::FieldRef || e.kind == Expr::Kind::Deriv) &&
        s_.fields[e.id].role == FieldRole::Time)
      return true;
    for (const ir::ExprPtr &op : e.operands)
      if (readsTime(*op))
        return true;
    return false;
  }

  // Linear in the time levels: no product of two time-dependent factors, no
  // division by one, no function of one (docs/DSL.md, "Updates").
  void checkLinear(const Expr &e) {
    if (ir::isPointwiseChoice(e.kind)) {
      // One report per choice, at the read that breaks it (its nested choices included).
      if (auto read = ir::findNonCentreRead(s_, e))
        diag_.error(read->at->loc, ir::nonCentreReadMessage(e.kind, *read));
      return;
    }
    for (const ir::ExprPtr &op : e.operands)
      checkLinear(*op);
    const char *prefix = "update is not linear in the time levels: ";
    if (e.kind == Expr::Kind::Mul && readsTime(*e.operands[0]) && readsTime(*e.operands[1]))
      diag_.error(e.loc, std::string(prefix) + "both factors of '*' read a time-level field");
    else if (e.kind == Expr::Kind::Div && readsTime(*e.operands[1]))
      diag_.error(e.loc, std::string(prefix) + "the divisor reads a time-level field");
    else if (e.kind == Expr::Kind::Call && readsTime(*e.operands[0]))
      diag_.error(e.loc, std::string(prefix) + "'" + ir::funcKindName(e.func) +
                             "' is applied to a time-level field");
  }

  ir::Stencil &s_;
  DiagnosticEngine &diag_;
  std::map<int, int> sumSets_; ///< sum variable -> point set
};

} // namespace

bool checkStencil(ir::Stencil &stencil, DiagnosticEngine &diag) {
  return StencilChecker(stencil, diag).run();
}

} // namespace stencilc
