//===- IndexPolynomial.h - Integer polynomials over index symbols ----------===//
//
// How `lift` reads array subscripts: `i + nx*(j + ny*k)` becomes
// i + nx*j + nx*ny*k, a polynomial with integer coefficients whose symbols are
// the C++ variables it names (loop counters and loop-invariant sizes). The
// coefficient of a loop counter is a stride; what is left, decomposed along
// the strides, is the point's offset.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stencilc::tooling {

/// A product of symbols, sorted by name (a symbol may repeat: nx*nx).
using Monomial = std::vector<std::string>;

class IndexPolynomial {
public:
  IndexPolynomial() = default;
  static IndexPolynomial constant(std::int64_t value);
  static IndexPolynomial symbol(const std::string &name);

  IndexPolynomial operator+(const IndexPolynomial &o) const;
  IndexPolynomial operator-(const IndexPolynomial &o) const;
  IndexPolynomial operator*(const IndexPolynomial &o) const;
  IndexPolynomial scaled(std::int64_t factor) const;

  bool isZero() const { return terms_.empty(); }
  /// The value, if no symbol occurs.
  std::optional<std::int64_t> constantValue() const;
  std::int64_t coefficient(const Monomial &m) const;
  bool mentions(const std::string &symbol) const;

  /// Splits off the terms linear in `symbol`: this == result * symbol + rest,
  /// where `rest` does not mention it. Nullopt if `symbol` occurs squared or
  /// the terms are not linear in it.
  std::optional<IndexPolynomial> linearCoefficient(const std::string &symbol,
                                                   IndexPolynomial &rest) const;

  /// Replaces `symbol` by `value` everywhere.
  IndexPolynomial substituted(const std::string &symbol, const IndexPolynomial &value) const;

  /// The monomial with the most factors (ties: the first by name); the empty
  /// monomial for constants.
  Monomial leadingMonomial() const;

  /// C++ text, most factors first: `nx * ny * k + 2 * nx - 3`, `0` when zero.
  std::string str() const;

  bool operator==(const IndexPolynomial &o) const { return terms_ == o.terms_; }

private:
  void add(const Monomial &m, std::int64_t c);
  std::map<Monomial, std::int64_t> terms_; ///< no zero coefficients
};

/// Splits `base` into d_z * strideZ + d_y * strideY + d_x (strides outermost
/// first, the x stride is 1). A symbolic stride takes its leading monomial's
/// coefficient exactly; a constant stride (C arrays) takes the nearest multiple.
/// Nullopt when a remainder is left.
std::optional<std::vector<std::int64_t>>
decomposeOffset(const IndexPolynomial &base, const std::vector<IndexPolynomial> &outerStrides);

} // namespace stencilc::tooling
