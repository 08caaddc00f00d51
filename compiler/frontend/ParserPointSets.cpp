//===- ParserPointSets.cpp - Parse point-set expressions and 'points' -----===//
#include "frontend/ParserImpl.h"

#include "ir/PointSetOps.h"

#include <algorithm>
#include <fmt/format.h>

namespace stencilc {

using namespace parser_detail;
using ir::Offset;

namespace {
std::string offsetText(const Offset &o, int dims) {
  return dims == 2 ? fmt::format("({},{})", o[0], o[1])
                   : fmt::format("({},{},{})", o[0], o[1], o[2]);
}
} // namespace

//===----------------------------------------------------------------------===//
// Point sets
//===----------------------------------------------------------------------===//

bool Parser::parseShapeRadius(int &r) {
  Token kw = tok_;
  consume();
  if (!expect(Token::LParen, "after '" + kw.text.str() + "'"))
    return false;
  Token value = tok_;
  if (!expectInteger(r, "a radius"))
    return false;
  if (r < 1 || r > kMaxShapeRadius) {
    diag_.error(
        value.loc(),
        fmt::format("'{}' radius must be between 1 and {}, got {}", kw.text, kMaxShapeRadius, r),
        {value.range()});
    // Go on with a legal radius so the point set is still declared and its uses are not errors.
    r = std::clamp(r, 1, kMaxShapeRadius);
  }
  dimsUsed_ = true;
  return expect(Token::RParen, "after the radius");
}

bool Parser::parseOffset(Offset &out, llvm::SMLoc &loc) {
  loc = tok_.loc();
  if (!expect(Token::LParen, "to start an offset like (1,0,0)"))
    return false;
  dimsUsed_ = true;
  out = {0, 0, 0};
  int n = 0;
  do {
    int v = 0;
    if (!expectSignedInteger(v))
      return false;
    if (n < 3)
      out[n] = v;
    ++n;
  } while (consumeIf(Token::Comma));
  if (!expect(Token::RParen, "to end the offset"))
    return false;
  if (n != stencil_->dims) {
    diag_.error(loc, fmt::format("offset has {} component{}, but a {}d grid needs {}", n,
                                 n == 1 ? "" : "s", stencil_->dims, stencil_->dims));
    return false;
  }
  return true;
}

std::optional<Parser::PointValue> Parser::parsePointTerm() {
  NestingGuard nesting(nesting_);
  if (nesting.tooDeep()) {
    diag_.error(tok_.loc(),
                fmt::format("point expression nested more than {} levels deep", kMaxNesting));
    return std::nullopt;
  }
  int dims = stencil_->dims;
  if (tok_.is(Token::LBrace)) {
    Token open = tok_;
    consume();
    PointValue value;
    if (tok_.is(Token::RBrace)) {
      diag_.error(open.loc(), "empty point list; a point set needs at least one offset",
                  {llvm::SMRange(open.loc(), tok_.range().End)});
      consume();
      return value; // declared empty, so its uses are not errors too
    }
    std::vector<llvm::SMLoc> locs; // where each point of the list was written
    do {
      Offset o;
      llvm::SMLoc loc;
      if (!parseOffset(o, loc)) {
        // Skip to the list's '}' and go on with the points read so far, so the set is still
        // declared; without a '}', the statement's ';' ends the recovery.
        while (!tok_.is(Token::RBrace) && !tok_.is(Token::Semicolon) && !tok_.is(Token::Eof))
          consume();
        if (!consumeIf(Token::RBrace))
          return std::nullopt;
        ir::sortUnique(value.points);
        return value;
      }
      auto seen = std::find(value.points.begin(), value.points.end(), o);
      if (seen != value.points.end()) {
        diag_.error(loc, "duplicate point " + offsetText(o, dims) + " in point list");
        diag_.note(locs[seen - value.points.begin()], "first written here");
        continue; // a set: the duplicate adds nothing
      }
      value.points.push_back(o);
      locs.push_back(loc);
    } while (consumeIf(Token::Comma));
    if (!expect(Token::RBrace, "to close the point list"))
      return std::nullopt;
    ir::sortUnique(value.points);
    return value;
  }
  if (tok_.is(Token::LParen)) {
    consume();
    auto value = parsePointExpr();
    if (!value || !expect(Token::RParen, "to close the point expression"))
      return std::nullopt;
    return value;
  }
  if (!tok_.is(Token::Identifier)) {
    errorAtToken("expected a point set: '{...}', 'axes(r)', 'diagonals(r)', 'box(r)', "
                 "'expand(...)' or a point set name");
    return std::nullopt;
  }
  int r = 0;
  if (tok_.isKeyword("axes") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::axesPoints(dims, r), -1};
  }
  if (tok_.isKeyword("diagonals") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::diagonalPoints(dims, r), -1};
  }
  if (tok_.isKeyword("box") && peek().is(Token::LParen)) {
    if (!parseShapeRadius(r))
      return std::nullopt;
    return PointValue{ir::boxPoints(dims, r), -1};
  }
  if (tok_.isKeyword("expand") && peek().is(Token::LParen)) {
    consume();
    consume(); // '('
    auto inner = parsePointExpr();
    if (!inner || !expect(Token::Comma, "between the points and the symmetry of 'expand'"))
      return std::nullopt;
    Token symName;
    if (!expectIdentifier(symName, "a symmetry name"))
      return std::nullopt;
    int sym = stencil_->findSymmetry(symName.text.str());
    if (sym < 0) // reported; go on with the unexpanded points so the set is still declared
      diag_.error(symName.loc(), "unknown symmetry '" + symName.text + "'", {symName.range()});
    if (!expect(Token::RParen, "to close 'expand'"))
      return std::nullopt;
    if (sym < 0)
      return inner;
    ir::SymmetryGroup group(stencil_->symmetries[sym], dims);
    return PointValue{ir::closure(inner->points, group), sym};
  }
  Token name = tok_;
  consume();
  int ps = stencil_->findPointSet(name.text.str());
  if (ps < 0) {
    diag_.error(name.loc(), "unknown point set '" + name.text + "'", {name.range()});
    return std::nullopt;
  }
  return PointValue{stencil_->pointSets[ps].points, stencil_->pointSets[ps].symmetry};
}

std::optional<Parser::PointValue> Parser::parsePointExpr() {
  auto value = parsePointTerm();
  if (!value)
    return std::nullopt;
  while (tok_.is(Token::Pipe)) {
    consume();
    auto rhs = parsePointTerm();
    if (!rhs)
      return std::nullopt;
    value->points.insert(value->points.end(), rhs->points.begin(), rhs->points.end());
    ir::sortUnique(value->points);
    // A union of differently generated sets has no implied symmetry.
    if (value->symmetry != rhs->symmetry)
      value->symmetry = -1;
  }
  return value;
}

bool Parser::parsePoints() {
  consume(); // 'points'
  Token name;
  if (!expectIdentifier(name, "a point set name after 'points'"))
    return false;
  if (!expect(Token::Equal, "after the point set name"))
    return false;
  auto value = parsePointExpr();
  if (!value)
    return false;
  int symmetry = value->symmetry;
  if (tok_.isKeyword("under")) {
    consume();
    Token symName;
    if (!expectIdentifier(symName, "a symmetry name after 'under'"))
      return false;
    // A bad symmetry is reported, and the set declared without one so its uses are not errors.
    symmetry = stencil_->findSymmetry(symName.text.str());
    if (symmetry < 0) {
      diag_.error(symName.loc(), "unknown symmetry '" + symName.text + "'", {symName.range()});
    } else {
      ir::SymmetryGroup group(stencil_->symmetries[symmetry], stencil_->dims);
      if (auto source = ir::firstMissingImage(value->points, group)) {
        // firstMissingImage names the point whose image is missing; the user needs the image.
        Offset missing = *source;
        for (const Offset &image : group.orbit(*source))
          if (!std::binary_search(value->points.begin(), value->points.end(), image,
                                  ir::offsetLess)) {
            missing = image;
            break;
          }
        diag_.error(symName.loc(),
                    "point set '" + name.text + "' is not closed under symmetry '" + symName.text +
                        "': it has " + offsetText(*source, stencil_->dims) + " but not its image " +
                        offsetText(missing, stencil_->dims),
                    {symName.range()});
        symmetry = -1;
      }
    }
  }
  if (!expect(Token::Semicolon, "after the point set"))
    return false;
  if (!declareName(name))
    return true;
  ir::PointSet ps;
  ps.name = name.text.str();
  ps.loc = name.loc();
  ps.points = std::move(value->points);
  ps.symmetry = symmetry;
  if (symmetry >= 0) {
    ir::SymmetryGroup group(stencil_->symmetries[symmetry], stencil_->dims);
    ps.numClasses = ir::orbitClasses(ps.points, group, ps.classOf);
  } else {
    ir::SymmetryGroup identity(stencil_->dims);
    ps.numClasses = ir::orbitClasses(ps.points, identity, ps.classOf);
  }
  stencil_->pointSets.push_back(std::move(ps));
  return true;
}

} // namespace stencilc
