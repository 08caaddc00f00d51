//===- CentreReads.cpp ----------------------------------------------------===//
#include "ir/CentreReads.h"

#include "fmt/format.h"

namespace stencilc::ir {

bool isPointwiseChoice(Expr::Kind k) {
  return k == Expr::Kind::Min || k == Expr::Kind::Max || k == Expr::Kind::Select;
}

const char *pointwiseChoiceName(Expr::Kind k) {
  switch (k) {
  case Expr::Kind::Min: return "min";
  case Expr::Kind::Max: return "max";
  default: return "?:";
  }
}

std::optional<NonCentreRead> findNonCentreRead(const Stencil &s, const Expr &e) {
  auto fieldName = [&](int id) {
    return id >= 0 && id < int(s.fields.size()) ? "'" + s.fields[id].name + "'"
                                                : fmt::format("field #{}", id);
  };
  auto isTime = [&](int id) {
    return id >= 0 && id < int(s.fields.size()) && s.fields[id].role == FieldRole::Time;
  };
  switch (e.kind) {
  case Expr::Kind::FieldRef:
    if (isTime(e.id))
      return NonCentreRead{&e, fieldName(e.id) + " is a time-level field"};
    if (e.sumVar >= 0)
      return NonCentreRead{&e, fieldName(e.id) + " is read at the points of a sum"};
    if (e.offset != Offset{0, 0, 0})
      return NonCentreRead{&e, fmt::format("{} is read at [{}, {}, {}]", fieldName(e.id),
                                           e.offset[0], e.offset[1], e.offset[2])};
    return std::nullopt;
  case Expr::Kind::Deriv:
    return NonCentreRead{&e, fmt::format("'{}({})' reads neighbours", derivKindName(e.deriv),
                                         e.id >= 0 && e.id < int(s.fields.size())
                                             ? s.fields[e.id].name
                                             : fmt::format("#{}", e.id))};
  default:
    for (const ExprPtr &op : e.operands)
      if (op)
        if (auto found = findNonCentreRead(s, *op))
          return found;
    return std::nullopt;
  }
}

std::string nonCentreReadMessage(Expr::Kind choice, const NonCentreRead &read) {
  return fmt::format("'{}' may only read centre values of coefficient fields, scalars, numbers "
                     "and table lookups: {}",
                     pointwiseChoiceName(choice), read.why);
}

} // namespace stencilc::ir
