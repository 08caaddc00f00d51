//===- ParserUpdates.cpp - Parse updates and 'plan' clauses ---------------===//
#include "frontend/ParserImpl.h"

#include <fmt/format.h>

namespace stencilc {

using namespace parser_detail;
using ir::ExprPtr;

//===----------------------------------------------------------------------===//
// Updates and plan clauses
//===----------------------------------------------------------------------===//

bool Parser::parseUpdate() {
  Token name = tok_;
  consume();
  consume(); // '='
  int out = stencil_->findField(name.text.str());
  bool ok = true;
  if (out < 0) {
    diag_.error(name.loc(), "update of undeclared field '" + name.text + "'", {name.range()});
    ok = false;
  } else if (stencil_->fields[out].role != ir::FieldRole::Output) {
    diag_.error(name.loc(),
                "'" + name.text + "' is declared '" +
                    ir::fieldRoleName(stencil_->fields[out].role) +
                    "'; only a field declared 'out' can be assigned",
                {name.range()});
    ok = false;
  } else {
    for (const ir::Update &u : stencil_->updates)
      if (u.output == out) {
        diag_.error(name.loc(), "'" + name.text + "' is assigned more than once", {name.range()});
        diag_.note(u.loc, "previous update is here");
        ok = false;
      }
  }
  ExprPtr rhs = parseExpr();
  if (!rhs)
    return false;
  if (!expect(Token::Semicolon, "after the update rule"))
    return false;
  if (ok)
    stencil_->updates.push_back({out, std::move(rhs), name.loc()});
  return true;
}

bool Parser::parsePlan() {
  Token kw = tok_;
  consume();
  ir::PlanDirective &plan = stencil_->plan;
  if (tok_.isKeyword("sweeps")) {
    consume();
    if (plan.sweeps > 0) {
      diag_.error(kw.loc(), "duplicate 'plan sweeps'");
      diag_.note(plan.sweepsLoc, "previous 'plan sweeps' is here");
      return false;
    }
    Token value = tok_;
    int sweeps = 0;
    if (!expectInteger(sweeps, "a number of sweeps after 'plan sweeps'"))
      return false;
    if (sweeps < 1 || sweeps > kMaxPlanSweeps) {
      diag_.error(
          value.loc(),
          fmt::format("plan sweeps must be between 1 and {}, got {}", kMaxPlanSweeps, sweeps),
          {value.range()});
      return false;
    }
    plan.sweeps = sweeps;
    plan.sweepsLoc = kw.loc();
    return expect(Token::Semicolon, "after the plan");
  }
  if (tok_.isKeyword("tables")) {
    consume();
    if (plan.tablesLoc.isValid()) {
      diag_.error(kw.loc(), "duplicate 'plan tables'");
      diag_.note(plan.tablesLoc, "previous 'plan tables' is here");
      return false;
    }
    using Tables = ir::PlanDirective::Tables;
    if (consumeKeywordIf("shared"))
      plan.tables = Tables::Shared;
    else if (consumeKeywordIf("readonly"))
      plan.tables = Tables::ReadOnly;
    else if (consumeKeywordIf("global"))
      plan.tables = Tables::Global;
    else {
      errorAtToken("expected 'shared', 'readonly' or 'global' after 'plan tables'");
      return false;
    }
    plan.tablesLoc = kw.loc();
    return expect(Token::Semicolon, "after the plan");
  }
  errorAtToken("expected 'sweeps' or 'tables' after 'plan'");
  return false;
}

} // namespace stencilc
