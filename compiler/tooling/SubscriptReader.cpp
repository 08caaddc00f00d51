//===- SubscriptReader.cpp - Subscripts of a loop body (Lifter.h) ---------===//
//
// Where a subscript points: an index expression as a polynomial in the loop
// counters and other integers (readIndex), the array element it names
// (readElement: the array, its strides, how the stencil will name it), and
// that element's offset from the loop point (locate). ValueReader.cpp reads
// the values those elements hold.
//
//===----------------------------------------------------------------------===//
#include "tooling/Lifter.h"

#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling::lifting {

namespace {

/// The farthest neighbour `lift` accepts; anything beyond is a misread subscript.
constexpr int kMaxOffset = 16;

} // namespace

std::string Lifter::text(const Expr *e) const {
  const SourceManager &sm = context_.getSourceManager();
  return Lexer::getSourceText(CharSourceRange::getTokenRange(e->getSourceRange()), sm,
                              context_.getLangOpts())
      .str();
}

std::optional<IndexPolynomial> Lifter::readIndex(const Expr *e) {
  e = e->IgnoreParens();
  if (const auto *cast = dyn_cast<CastExpr>(e))
    if (cast->getSubExpr()->getType()->isIntegerType())
      return readIndex(cast->getSubExpr());
  Expr::EvalResult value;
  if (!e->isValueDependent() && e->EvaluateAsInt(value, context_))
    return IndexPolynomial::constant(value.Val.getInt().getExtValue());
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl())) {
      if (auto it = locals_.find(var); it != locals_.end())
        return it->second;
      return IndexPolynomial::symbol(var->getNameAsString());
    }
  if (const auto *unary = dyn_cast<UnaryOperator>(e)) {
    auto operand = readIndex(unary->getSubExpr());
    if (operand && unary->getOpcode() == UO_Minus)
      return operand->scaled(-1);
    if (operand && unary->getOpcode() == UO_Plus)
      return operand;
  }
  if (const auto *binary = dyn_cast<BinaryOperator>(e)) {
    auto lhs = readIndex(binary->getLHS());
    if (!lhs)
      return std::nullopt;
    auto rhs = readIndex(binary->getRHS());
    if (!rhs)
      return std::nullopt;
    switch (binary->getOpcode()) {
    case BO_Add: return *lhs + *rhs;
    case BO_Sub: return *lhs - *rhs;
    case BO_Mul: return *lhs * *rhs;
    default: break;
    }
  }
  fail(e->getBeginLoc(), "cannot read the subscript '" + text(e) +
                             "': subscripts must be sums of products of integer variables and "
                             "constants");
  return std::nullopt;
}

namespace {

/// An identifier for the C++ expression `key`: "p[(t+1)%2]" -> "p_t_1_2".
std::string identifierFor(const std::string &key) {
  std::string id;
  for (char c : key) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
      id += c;
    else if (!id.empty() && id.back() != '_')
      id += '_';
  }
  while (!id.empty() && id.back() == '_' && key.back() != '_')
    id.pop_back();
  return id;
}

std::string withoutSpaces(const std::string &text) {
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += c;
  return out;
}

/// A variable, `this`, or a member of one of them: an object the call can name.
bool namesObject(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (isa<DeclRefExpr>(e) || isa<CXXThisExpr>(e))
    return true;
  if (const auto *member = dyn_cast<MemberExpr>(e))
    return namesObject(member->getBase());
  return false;
}

} // namespace

std::optional<std::pair<int, IndexPolynomial>> Lifter::readElement(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  // The subscripts from the variable outwards; the leading ones free of the
  // loop's counters select the array (`p[t % 2]` of `float *p[2]`).
  struct Step {
    const Expr *base; ///< what the subscript applies to
    const Expr *index;
    bool container; ///< std::vector::operator[]
  };
  std::vector<Step> steps;
  const Expr *root = e;
  while (true) {
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(root)) {
      steps.insert(steps.begin(), {sub->getBase()->IgnoreParenImpCasts(), sub->getIdx(), false});
      root = sub->getBase()->IgnoreParenImpCasts();
    } else if (const auto *call = dyn_cast<CXXOperatorCallExpr>(root);
               call && call->getOperator() == OO_Subscript) {
      steps.insert(steps.begin(), {call->getArg(0)->IgnoreParenImpCasts(), call->getArg(1), true});
      root = call->getArg(0)->IgnoreParenImpCasts();
    } else {
      break;
    }
  }
  // The array is a variable, or a member of an object named by a variable or
  // `this` (`model.vel`, `this->p`, a member `p` in a method).
  const ValueDecl *decl = nullptr;
  std::string rootName, rootText;
  if (const auto *ref = dyn_cast<DeclRefExpr>(root)) {
    decl = dyn_cast<VarDecl>(ref->getDecl());
    rootName = rootText = decl ? decl->getNameAsString() : "";
  } else if (const auto *member = dyn_cast<MemberExpr>(root);
             member && namesObject(member->getBase()) && !findCounter(member)) {
    decl = member->getMemberDecl();
    rootText = text(member);
    rootName = identifierFor(withoutSpaces(rootText));
    // `p` and `this->p` in a method are one array.
    if (isa<CXXThisExpr>(member->getBase()->IgnoreParenImpCasts())) {
      rootName = decl->getNameAsString();
      rootText = "this->" + rootName;
    }
  }
  if (!decl || steps.empty() || rootText.empty()) {
    fail(root->getBeginLoc(), "cannot tell which array '" + text(root) +
                                  "' is: index a variable or a member that names the array");
    return std::nullopt;
  }
  size_t selectors = 0;
  while (selectors + 1 < steps.size() && !findCounter(steps[selectors].index))
    ++selectors;
  // Only what a subscript can select whole: an element that is itself an array.
  auto selectsArray = [&](size_t n) {
    QualType t = steps[n].base->getType().getNonReferenceType(); // after n selectors
    const auto *record = t->getAsCXXRecordDecl();
    return t->isPointerType() || t->isArrayType() || (record && record->getName() == "vector");
  };
  while (selectors > 0 && !selectsArray(selectors))
    --selectors;
  // The call names the selected array where the loops were: not through an
  // unrolled loop's counter, which is not in scope there.
  for (size_t n = 0; n < selectors; ++n)
    if (mentionsAny(steps[n].index, unrolled_)) {
      fail(steps[n].index->getBeginLoc(), "the array '" + text(steps[n + 1].base) +
                                              "' is chosen by an inner loop's counter; choose "
                                              "it outside the loop nest");
      return std::nullopt;
    }
  const Expr *base = steps[selectors].base;
  std::vector<const Expr *> subscripts; // outermost dimension first
  for (size_t n = selectors; n < steps.size(); ++n)
    subscripts.push_back(steps[n].index);
  bool container = steps[selectors].container;
  if (container && subscripts.size() != 1) {
    fail(e->getBeginLoc(), "'" + text(base) +
                               "' is a std::vector of vectors indexed by the loop point; its "
                               "elements are not contiguous");
    return std::nullopt;
  }
  std::string key = selectors == 0 ? withoutSpaces(rootText) : withoutSpaces(text(base));
  std::string name = selectors == 0 ? rootName : identifierFor(key);
  std::string cppBase = selectors == 0 ? rootText : text(base);
  QualType type = base->getType().getNonReferenceType();
  // The sizes of the inner dimensions of a C array give the strides of its subscripts.
  std::vector<int64_t> innerSizes;
  QualType elem;
  std::string basePointer = cppBase;
  if (container) {
    const auto *record = type->getAsCXXRecordDecl();
    if (!record || record->getName() != "vector") {
      fail(base->getBeginLoc(), "'" + name +
                                    "' is not an array, a pointer or a std::vector; its elements "
                                    "may not be contiguous");
      return std::nullopt;
    }
    elem = e->getType().getNonReferenceType();
    basePointer = cppBase + ".data()";
  } else {
    if (const auto *array = context_.getAsArrayType(type))
      elem = array->getElementType();
    else if (type->isPointerType())
      elem = type->getPointeeType();
    while (const auto *inner = context_.getAsConstantArrayType(elem)) {
      innerSizes.push_back(inner->getSize().getSExtValue());
      elem = inner->getElementType();
    }
    if (subscripts.size() != innerSizes.size() + 1 || elem.isNull() || !elem->isArithmeticType()) {
      fail(e->getBeginLoc(), "'" + name +
                                 "' must be subscripted once per dimension down to a "
                                 "number; nested pointers and std::vector of vectors "
                                 "are not contiguous");
      return std::nullopt;
    }
    if (subscripts.size() > 1) {
      basePointer = "&" + (selectors == 0 ? cppBase : "(" + cppBase + ")");
      for (size_t d = 0; d < subscripts.size(); ++d)
        basePointer += "[0]";
    }
  }
  IndexPolynomial address;
  for (size_t d = 0; d < subscripts.size(); ++d) {
    auto index = readIndex(subscripts[d]);
    if (!index)
      return std::nullopt;
    int64_t stride = 1;
    for (size_t inner = d; inner < innerSizes.size(); ++inner)
      stride *= innerSizes[inner];
    address = address + index->scaled(stride);
  }
  int id = -1;
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (arrays_[a].decl == decl && arrays_[a].key == key)
      id = int(a);
  if (id < 0) {
    id = int(arrays_.size());
    ArrayInfo info;
    info.decl = decl;
    info.key = key;
    info.name = name;
    info.elem = elem.getCanonicalType().getUnqualifiedType(); // no typedef sugar
    info.basePointer = basePointer;
    arrays_.push_back(info);
  }
  return std::make_pair(id, address);
}

std::optional<Offset> Lifter::locate(int array, const IndexPolynomial &address, const Expr *where) {
  ArrayInfo &info = arrays_[array];
  IndexPolynomial rest = address;
  std::vector<IndexPolynomial> strides;
  for (int axis = 0; axis < dims_; ++axis) {
    std::string counter = axisCounter(axis);
    IndexPolynomial remainder;
    auto stride = rest.linearCoefficient(counter, remainder);
    if (!stride) {
      fail(where->getBeginLoc(),
           "the subscript of '" + info.key + "' is not linear in '" + counter + "'");
      return std::nullopt;
    }
    strides.push_back(*stride);
    rest = remainder;
  }
  for (int axis = 0; axis < dims_; ++axis) {
    for (int other = 0; other < dims_; ++other)
      if (strides[axis].mentions(axisCounter(other))) {
        fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                       "' multiplies loop "
                                       "counters '" +
                                       axisCounter(axis) + "' and '" + axisCounter(other) + "'");
        return std::nullopt;
      }
    if (strides[axis].isZero()) {
      fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                     "' does not depend on the "
                                     "loop counter '" +
                                     axisCounter(axis) +
                                     "': every array must span the whole loop nest");
      return std::nullopt;
    }
  }
  if (!(strides[0] == IndexPolynomial::constant(1))) {
    fail(where->getBeginLoc(), "the innermost loop ('" + axisCounter(0) + "') must walk '" +
                                   info.key + "' contiguously, but its stride is " +
                                   strides[0].str());
    return std::nullopt;
  }
  if (info.haveStrides && info.strides != strides) {
    fail(where->getBeginLoc(), "'" + info.key +
                                   "' is subscripted with two different layouts "
                                   "in one loop nest");
    return std::nullopt;
  }
  info.strides = strides;
  info.haveStrides = true;
  std::vector<IndexPolynomial> outer(strides.rbegin(), strides.rend() - 1);
  auto offset = decomposeOffset(rest, outer);
  if (!offset) {
    fail(where->getBeginLoc(), "the subscript of '" + info.key +
                                   "' is not the loop point plus a constant offset (" + rest.str() +
                                   " is left over)");
    return std::nullopt;
  }
  Offset o{0, 0, 0};
  for (int axis = 0; axis < dims_; ++axis) {
    int64_t d = (*offset)[axis];
    if (d > kMaxOffset || d < -kMaxOffset) {
      fail(where->getBeginLoc(), fmt::format("'{}' is read {} points away along {}; lift "
                                             "accepts neighbours up to {} points away",
                                             info.key, d, "xyz"[axis], kMaxOffset));
      return std::nullopt;
    }
    o[axis] = int(d);
  }
  return o;
}

} // namespace stencilc::tooling::lifting
