//===- ParserDecls.cpp - Parse the grid header and the declarations -------===//
#include "frontend/ParserImpl.h"

#include "ir/Keywords.h"
#include "llvm/ADT/StringSwitch.h"

#include <fmt/format.h>

namespace stencilc {

using namespace parser_detail;

//===----------------------------------------------------------------------===//
// Grid header and declarations
//===----------------------------------------------------------------------===//

bool Parser::parseGrid() {
  Token kw = tok_;
  consume();
  if (sawGrid_) {
    diag_.error(kw.loc(), "duplicate 'grid' declaration");
    return false;
  }
  sawGrid_ = true;
  int dims = 0;
  if (tok_.isKeyword("2d"))
    dims = 2;
  else if (tok_.isKeyword("3d"))
    dims = 3;
  else {
    errorAtToken("expected '2d' or '3d' after 'grid'");
    return false;
  }
  if (dimsUsed_ && dims != stencil_->dims) {
    diag_.error(tok_.loc(), "'grid' must come before the point sets and offsets that depend on it");
    return false;
  }
  stencil_->dims = dims;
  consume();
  return expect(Token::Semicolon, "after the grid declaration");
}

bool Parser::parseType() {
  Token kw = tok_;
  consume();
  if (sawType_) {
    diag_.error(kw.loc(), "duplicate 'type' declaration");
    return false;
  }
  sawType_ = true;
  if (consumeKeywordIf("float"))
    stencil_->elemType = ir::ElemType::Float;
  else if (consumeKeywordIf("double"))
    stencil_->elemType = ir::ElemType::Double;
  else {
    errorAtToken("expected 'float' or 'double' after 'type'");
    return false;
  }
  return expect(Token::Semicolon, "after the type declaration");
}

bool Parser::parseOrder() {
  Token kw = tok_;
  consume();
  if (sawOrder_) {
    diag_.error(kw.loc(), "duplicate 'order' declaration");
    diag_.note(orderLoc_, "previous declaration is here");
    return false;
  }
  sawOrder_ = true;
  orderLoc_ = kw.loc();
  Token value = tok_;
  int order = 0;
  if (!expectInteger(order, "an even accuracy order after 'order'"))
    return false;
  if (order < 2 || order % 2 != 0 || order > kMaxOrder) {
    diag_.error(
        value.loc(),
        fmt::format("order must be an even number between 2 and {}, got {}", kMaxOrder, order),
        {value.range()});
    return false;
  }
  stencil_->order = order;
  stencil_->radius = order / 2;
  stencil_->radiusDeclared = true;
  return expect(Token::Semicolon, "after the order declaration");
}

std::optional<Declaration> parser_detail::findDeclaration(const ir::Stencil &s,
                                                          const std::string &n) {
  if (int i = s.findField(n); i >= 0)
    return Declaration{"field", s.fields[i].loc};
  if (int i = s.findScalar(n); i >= 0)
    return Declaration{"scalar", s.scalars[i].loc};
  if (int i = s.findTable(n); i >= 0)
    return Declaration{"table", s.tables[i].loc};
  if (int i = s.findPointSet(n); i >= 0)
    return Declaration{"point set", s.pointSets[i].loc};
  if (int i = s.findSymmetry(n); i >= 0)
    return Declaration{"symmetry", s.symmetries[i].loc};
  return std::nullopt;
}

bool Parser::declareName(const Token &name) {
  std::string n = name.text.str();
  if (auto previous = findDeclaration(*stencil_, n)) {
    diag_.error(name.loc(), "redefinition of '" + name.text + "'", {name.range()});
    diag_.note(previous->loc, "previous definition is here");
    return false;
  }
  if (ir::isBuiltinName(n)) {
    diag_.error(name.loc(), "'" + name.text + "' is a built-in name and cannot be redefined",
                {name.range()});
    return false;
  }
  return true;
}

bool Parser::parseField() {
  consume(); // 'field'
  Token name;
  if (!expectIdentifier(name, "a field name after 'field'"))
    return false;
  if (!expect(Token::Colon, "after the field name"))
    return false;
  ir::Field field;
  field.name = name.text.str();
  field.loc = name.loc();
  if (consumeKeywordIf("time")) {
    field.role = ir::FieldRole::Time;
  } else if (consumeKeywordIf("in")) {
    field.role = ir::FieldRole::Input;
  } else if (tok_.isKeyword("index")) {
    consume();
    field.role = ir::FieldRole::Index;
    if (consumeKeywordIf("uint8"))
      field.indexType = ir::IndexType::UInt8;
    else if (consumeKeywordIf("uint16"))
      field.indexType = ir::IndexType::UInt16;
    else if (consumeKeywordIf("int32"))
      field.indexType = ir::IndexType::Int32;
    else if (tok_.is(Token::Identifier)) {
      // A misspelt type: report it, but declare the field so its uses are not errors too.
      errorAtToken("expected an index type 'uint8', 'uint16' or 'int32'");
      consume();
    } else {
      errorAtToken("expected an index type 'uint8', 'uint16' or 'int32'");
      return false;
    }
  } else if (consumeKeywordIf("out")) {
    field.role = ir::FieldRole::Output;
    // `advances F`: the output is the next time level of F; `overwrites G`: it may be
    // written over G in place. Either clause is optional; advances comes first.
    if (consumeKeywordIf("advances")) {
      int id = parseTimeLevelTarget("the time-level field whose next level this output is",
                                    "advanced", &ir::Field::advances);
      if (id == kParseFailed)
        return false;
      field.advances = id;
    }
    if (consumeKeywordIf("overwrites")) {
      llvm::SMLoc targetLoc = tok_.loc();
      int id = parseTimeLevelTarget("the time-level field that the output may overwrite",
                                    "overwritten in place", &ir::Field::overwrites);
      if (id == kParseFailed)
        return false;
      if (id >= 0 && id == field.advances) {
        diag_.error(targetLoc, "an output cannot overwrite the level it advances: '" +
                                   stencil_->fields[id].name +
                                   "' is still needed to rotate the time levels");
        id = -1;
      }
      field.overwrites = id;
    }
  } else if (tok_.isKeyword("int") || tok_.isKeyword("float") || tok_.isKeyword("double")) {
    errorAtToken("expected a field role 'time', 'in', 'index <type>' or 'out' (the element type "
                 "is set once by 'type')");
    return false;
  } else {
    errorAtToken("expected a field role 'time', 'in', 'index <type>' or 'out'");
    return false;
  }
  if (!expect(Token::Semicolon, "after the field declaration"))
    return false;
  if (!declareName(name))
    return true; // reported; the statement itself was well formed
  stencil_->fields.push_back(std::move(field));
  return true;
}

int Parser::parseTimeLevelTarget(llvm::StringRef what, llvm::StringRef verb,
                                 int ir::Field::*relation) {
  Token target;
  if (!expectIdentifier(target, what))
    return kParseFailed;
  // A bad target is reported and dropped (-1); the output itself is still declared.
  int id = stencil_->findField(target.text.str());
  if (id < 0) {
    diag_.error(target.loc(), "unknown field '" + target.text + "'", {target.range()});
    return -1;
  }
  if (stencil_->fields[id].role != ir::FieldRole::Time) {
    diag_.error(target.loc(),
                "'" + target.text + "' is declared '" +
                    ir::fieldRoleName(stencil_->fields[id].role) +
                    "'; only a field declared 'time' can be " + verb,
                {target.range()});
    return -1;
  }
  for (const ir::Field &other : stencil_->fields)
    if (other.*relation == id) {
      diag_.error(target.loc(),
                  "'" + target.text + "' is already " + verb + " by '" + other.name + "'",
                  {target.range()});
      return -1;
    }
  return id;
}

bool Parser::parseScalars() {
  consume(); // 'scalar'
  do {
    Token name;
    if (!expectIdentifier(name, "a scalar name"))
      return false;
    if (declareName(name))
      stencil_->scalars.push_back({name.text.str(), name.loc()});
  } while (consumeIf(Token::Comma));
  return expect(Token::Semicolon, "after the scalar declaration");
}

int Parser::requireAxis(const Token &tok) {
  int axis = llvm::StringSwitch<int>(tok.text).Case("x", 0).Case("y", 1).Case("z", 2).Default(-1);
  if (axis < 0) {
    diag_.error(tok.loc(), "expected an axis 'x', 'y' or 'z', found '" + tok.text + "'",
                {tok.range()});
    return -1;
  }
  dimsUsed_ = true;
  if (axis >= stencil_->dims) {
    diag_.error(tok.loc(), "axis '" + tok.text + "' does not exist in a 2d grid", {tok.range()});
    return -1;
  }
  return axis;
}

bool Parser::parseSymmetry() {
  consume(); // 'symmetry'
  Token name;
  if (!expectIdentifier(name, "a symmetry name after 'symmetry'"))
    return false;
  if (!expect(Token::Equal, "after the symmetry name"))
    return false;
  ir::Symmetry sym;
  sym.name = name.text.str();
  sym.loc = name.loc();
  do {
    Token axis;
    if (consumeKeywordIf("reflect")) {
      if (!expectIdentifier(axis, "an axis after 'reflect'"))
        return false;
      int a = requireAxis(axis);
      if (a < 0)
        return false;
      sym.generators.push_back({ir::SymmetryOp::Reflect, a, a});
    } else if (consumeKeywordIf("swap")) {
      Token axis2;
      if (!expectIdentifier(axis, "two axes after 'swap'"))
        return false;
      int a = requireAxis(axis);
      if (a < 0)
        return false;
      if (!expectIdentifier(axis2, "a second axis after 'swap " + axis.text.str() + "'"))
        return false;
      int b = requireAxis(axis2);
      if (b < 0)
        return false;
      if (a == b) {
        diag_.error(axis2.loc(), "'swap' needs two different axes", {axis2.range()});
        return false;
      }
      sym.generators.push_back({ir::SymmetryOp::Swap, a, b});
    } else {
      errorAtToken("expected a symmetry operation 'reflect AXIS' or 'swap AXIS AXIS'");
      return false;
    }
  } while (consumeIf(Token::Comma));
  if (!expect(Token::Semicolon, "after the symmetry declaration"))
    return false;
  if (declareName(name))
    stencil_->symmetries.push_back(std::move(sym));
  return true;
}

bool Parser::parseTable() {
  consume(); // 'table'
  Token name;
  if (!expectIdentifier(name, "a table name after 'table'"))
    return false;
  if (!expect(Token::LBracket, "after the table name: 'table C[rows];'"))
    return false;
  ir::Table table;
  table.name = name.text.str();
  table.loc = name.loc();
  if (tok_.is(Token::Integer)) {
    Token value = tok_;
    if (!expectInteger(table.rows, "a row count"))
      return false;
    if (table.rows < 1 || table.rows > kMaxTableRows) {
      diag_.error(
          value.loc(),
          fmt::format("a table needs between 1 and {} rows, got {}", kMaxTableRows, table.rows),
          {value.range()});
      return false;
    }
    table.rowSource = ir::Table::RowSource::Literal;
  } else if ((tok_.isKeyword("classes") || tok_.isKeyword("points")) && peek().is(Token::LParen)) {
    bool classes = tok_.isKeyword("classes");
    consume();
    consume(); // '('
    Token setName;
    if (!expectIdentifier(setName, "a point set name"))
      return false;
    int ps = stencil_->findPointSet(setName.text.str());
    if (ps < 0) {
      diag_.error(setName.loc(), "unknown point set '" + setName.text + "'", {setName.range()});
      return false;
    }
    if (!expect(Token::RParen, "after the point set name"))
      return false;
    table.pointSet = ps;
    table.rowSource = classes ? ir::Table::RowSource::Classes : ir::Table::RowSource::Points;
    table.rows =
        classes ? stencil_->pointSets[ps].numClasses : int(stencil_->pointSets[ps].points.size());
  } else {
    errorAtToken("expected a row count, 'classes(S)' or 'points(S)'");
    return false;
  }
  if (!expect(Token::RBracket, "after the table rows") ||
      !expect(Token::Semicolon, "after the table declaration"))
    return false;
  if (declareName(name))
    stencil_->tables.push_back(std::move(table));
  return true;
}

} // namespace stencilc
