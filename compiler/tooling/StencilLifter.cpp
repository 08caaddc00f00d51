//===- StencilLifter.cpp - From a C++ loop nest to a stencil --------------===//
//
// The roles of the arrays a loop body reads and the stencil they make; the
// body itself is read by BodyReader.cpp and ValueReader.cpp (Lifter.h).
//
//===----------------------------------------------------------------------===//
#include "tooling/StencilLifter.h"

#include "tooling/Lifter.h"

#include "clang/AST/Type.h"
#include "clang/Lex/Lexer.h"

#include "ir/Keywords.h"
#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <set>

namespace stencilc::tooling {
namespace lifting {

namespace {

std::string viewStride(const IndexPolynomial &stride) {
  if (stride.constantValue())
    return stride.str();
  return "std::ptrdiff_t(" + stride.str() + ")";
}

} // namespace

bool Lifter::assignRoles(LiftedStencil &out) {
  std::set<int> time, factors;
  for (size_t a = 0; a < arrays_.size(); ++a)
    for (const Offset &o : arrays_[a].reads)
      if (o != Offset{0, 0, 0})
        time.insert(int(a));
  // Terms found through a product with a known time level may reveal more;
  // only when that settles does a product of two unknowns decide.
  for (bool preferRight : {false, true})
    for (size_t known = size_t(-1); known != time.size();) {
      known = time.size();
      std::set<int> terms = time;
      for (int output : writeOrder_)
        collectTerms(pending_.at(output), terms, time, preferRight);
      time = terms;
    }
  for (int output : writeOrder_) {
    const Node *read = nullptr;
    if (const Node *choice = findChoiceReading(pending_.at(output), time, &read)) {
      const char *name = choice->kind == Node::Min   ? "min"
                         : choice->kind == Node::Max ? "max"
                                                     : "?:";
      return fail(choice->loc,
                  fmt::format("'{}' reads '{}', which the update reads as a "
                              "wavefield (a time level): min, max and '?:' may only read "
                              "per-point coefficients, scalars and numbers",
                              name, arrays_[size_t(read->array)].key));
    }
  }
  for (int output : writeOrder_)
    collectFactors(pending_.at(output), time, factors);

  std::map<int, std::string> overwrites; // output -> the time level it is written over
  for (size_t a = 0; a < arrays_.size(); ++a) {
    const ArrayInfo &info = arrays_[a];
    if (info.indexUse && (!info.reads.empty() || info.written))
      return fail(info.firstRead.isValid() ? info.firstRead : info.neighbourRead,
                  "the index array '" + info.key + "' is also read or written as a value");
    if (info.written && info.neighbourRead.isValid())
      return fail(info.neighbourRead,
                  "the loop writes '" + info.key +
                      "' while reading it at neighbours: the "
                      "result depends on the order of the loop; write to a separate array");
    if (info.indexUse || (info.written && info.reads.empty()))
      continue;
    if (time.count(int(a)) && factors.count(int(a)))
      return fail(info.firstRead, "'" + info.key +
                                      "' is both a wavefield term and a factor of one: the update "
                                      "is not linear in the arrays it reads at neighbours");
    if (!time.count(int(a)) && !factors.count(int(a)))
      return fail(info.firstRead, "cannot tell whether '" + info.key +
                                      "' is a wavefield or a per-point coefficient: it only "
                                      "multiplies other per-point arrays");
    if (info.written) {
      if (!time.count(int(a)))
        return fail(info.firstRead,
                    "the loop writes '" + info.key + "' while reading it as a coefficient");
      overwrites[int(a)] = arrayDslNames_[a];
    }
  }

  auto view = [&](const ArrayInfo &info, LiftedField &f) {
    IndexPolynomial origin;
    for (int axis = 0; axis < dims_; ++axis) {
      const LoopLevel &level = nest_.levels[dims_ - 1 - axis];
      IndexPolynomial lower = *readIndex(level.lower);
      origin = origin + info.strides[axis] * lower;
    }
    if (origin.isZero())
      f.origin = info.basePointer;
    else if (origin.constantValue())
      f.origin = info.basePointer + " + " + origin.str();
    else
      f.origin = info.basePointer + " + (" + origin.str() + ")";
    f.line = dims_ > 1 ? viewStride(info.strides[1]) : "0";
    f.plane = dims_ > 2 ? viewStride(info.strides[2]) : "0";
  };
  auto add = [&](int a, LiftedRole role) {
    LiftedField f;
    f.name = arrayDslNames_[a];
    f.role = role;
    if (role == LiftedRole::Index)
      f.indexType = *indexTypeName(arrays_[a].elem, context_);
    view(arrays_[a], f);
    out.fields.push_back(std::move(f));
  };
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (time.count(int(a)) && !arrays_[a].indexUse)
      add(int(a), LiftedRole::Time);
  // The kernel computes the updates in order and writes an output in place as
  // soon as it is computed, so updates that write over a level come after
  // every other update that reads it.
  std::vector<int> order, left = writeOrder_;
  while (!left.empty()) {
    auto ready = std::find_if(left.begin(), left.end(), [&](int o) {
      if (!overwrites.count(o))
        return true;
      for (int other : left)
        if (other != o && readsAny(pending_.at(other), {o}))
          return false;
      return true;
    });
    if (ready == left.end())
      return fail(arrays_[left.front()].firstRead,
                  "the updates of '" + arrays_[left.front()].key +
                      "' and another output each read the old value of what the other writes "
                      "over in place: no order of the updates keeps both; write one of them to "
                      "a separate array");
    order.push_back(*ready);
    left.erase(ready);
  }
  // An output written over a level it reads (at the centre only) gets a name of its own.
  for (int output : order) {
    std::string outputName = arrayDslNames_[output];
    auto level = overwrites.find(output);
    if (level != overwrites.end()) {
      outputName += "_next";
      while (usedNames_.count(outputName) || ir::isReservedWord(outputName))
        outputName += "_";
      usedNames_.insert(outputName);
    }
    LiftedField f;
    f.name = outputName;
    f.role = LiftedRole::Output;
    f.overwrites = level != overwrites.end() ? level->second : "";
    view(arrays_[output], f);
    out.fields.push_back(std::move(f));
    std::vector<std::string> tableNames;
    for (const TableInfo &t : tables_)
      tableNames.push_back(t.name);
    out.updates.push_back(
        {outputName, printValue(pending_.at(output), arrayDslNames_, tableNames, dims_)});
  }
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (factors.count(int(a)) && !time.count(int(a)) && !arrays_[a].indexUse)
      add(int(a), LiftedRole::Input);
  for (size_t a = 0; a < arrays_.size(); ++a)
    if (arrays_[a].indexUse)
      add(int(a), LiftedRole::Index);
  return true;
}

bool Lifter::readBounds(const LoopNest &nest, LiftedStencil &out) {
  // The bounds may not depend on other counters (rectangular nests).
  for (int axis = 0; axis < dims_; ++axis) {
    const LoopLevel &level = nest.levels[dims_ - 1 - axis];
    auto lower = readIndex(level.lower);
    if (!lower)
      return false;
    auto upper = readIndex(level.upper);
    if (!upper)
      return false;
    for (const LoopLevel &other : nest.levels)
      if (lower->mentions(other.counter->getNameAsString()) ||
          upper->mentions(other.counter->getNameAsString()))
        return fail(level.loop->getBeginLoc(),
                    "the bounds of loop '" + level.counter->getNameAsString() +
                        "' depend on the counter '" + other.counter->getNameAsString() +
                        "'; a stencil loop nest must be rectangular");
    IndexPolynomial trips = *upper - *lower;
    if (level.inclusive)
      trips = trips + IndexPolynomial::constant(1);
    std::string extent =
        trips.constantValue() ? trips.str() : "static_cast<int>(" + trips.str() + ")";
    if (&nest == &nest_) {
      out.extent[axis] = extent;
      continue;
    }
    const LoopLevel &first = nest_.levels[dims_ - 1 - axis];
    if (!(*lower == *readIndex(first.lower)) || extent != out.extent[axis])
      return fail(level.loop->getBeginLoc(),
                  "this loop nest continues the one at line " +
                      std::to_string(context_.getSourceManager().getSpellingLineNumber(
                          nest_.levels[0].loop->getBeginLoc())) +
                      " but its loop over '" + level.counter->getNameAsString() +
                      "' covers other points");
  }
  return true;
}

std::optional<LiftedStencil> Lifter::lift(const std::string &name) {
  LiftedStencil out;
  out.name = name;
  out.dims = dims_;
  for (const LoopNest &nest : group_) {
    if (int(nest.levels.size()) != dims_) {
      fail(nest.levels[0].loop->getBeginLoc(), "this loop nest continues one with " +
                                                   std::to_string(dims_) + " loops but has " +
                                                   std::to_string(nest.levels.size()));
      return std::nullopt;
    }
    // Later nests' counters stand for the first nest's.
    if (&nest != &nest_)
      for (int d = 0; d < dims_; ++d)
        locals_[nest.levels[d].counter] =
            IndexPolynomial::symbol(nest_.levels[d].counter->getNameAsString());
    if (!readBounds(nest, out))
      return std::nullopt;
  }
  for (const auto &level : nest_.levels)
    usedNames_.insert(level.counter->getNameAsString());
  for (const LoopNest &nest : group_)
    for (const Stmt *s : nest.body)
      if (!readStatement(s))
        return std::nullopt;
  if (writeOrder_.empty()) {
    fail(nest_.levels.back().loop->getBeginLoc(),
         "the loop body writes no array element: a stencil has an output");
    return std::nullopt;
  }
  out.elemType = *elemTypeName(*outputElem_);
  for (const ArrayInfo &a : arrays_) {
    if (a.indexUse || a.written || a.elem == *outputElem_)
      continue;
    fail(a.firstRead, "'" + a.key + "' holds '" + a.elem.getAsString() +
                          "' but the output holds '" + outputElem_->getAsString() +
                          "': a stencil has one element type");
    return std::nullopt;
  }
  for (const TableInfo &t : tables_)
    if (elemTypeName(context_.getBaseElementType(t.decl->getType())) != out.elemType) {
      fail(t.decl->getLocation(), "table '" + t.name +
                                      "' holds a different type than the output ('" + out.elemType +
                                      "')");
      return std::nullopt;
    }
  for (const ArrayInfo &a : arrays_)
    usedNames_.insert(a.name);
  for (const ArrayInfo &a : arrays_) {
    std::string dslName = a.name;
    while (ir::isReservedWord(dslName))
      dslName += "_";
    arrayDslNames_.push_back(dslName);
  }
  if (!assignRoles(out))
    return std::nullopt;
  for (const TableInfo &t : tables_)
    out.tables.push_back({t.name, t.rows, t.cols, "&" + t.decl->getNameAsString() + "[0][0]", ""});
  out.scalars = scalars_;
  return out;
}

} // namespace lifting

std::optional<LiftedStencil> liftLoopNests(const std::vector<LoopNest> &group,
                                           const std::string &name, clang::ASTContext &context,
                                           LiftError &error) {
  return lifting::Lifter(group, context, error).lift(name);
}

} // namespace stencilc::tooling
