//===- Rational.h - Exact rational numbers for finite-difference weights -===//
//
// Finite-difference weights are computed exactly so that a user's order-16
// stencil has the textbook coefficients, not a rounded approximation. The
// numerator and denominator are 64-bit, always reduced, denominator > 0;
// intermediate products use 128 bits and overflow throws
// std::overflow_error (the frontend turns it into a located diagnostic).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string>

namespace stencilc {

class Rational {
public:
  Rational() = default;
  Rational(int64_t value) : num_(value), den_(1) {} // NOLINT: implicit by design
  Rational(int64_t num, int64_t den);

  int64_t num() const { return num_; }
  int64_t den() const { return den_; }
  bool isZero() const { return num_ == 0; }
  bool isInteger() const { return den_ == 1; }
  double toDouble() const { return double(num_) / double(den_); }
  /// "3", "-8/5".
  std::string str() const;

  Rational operator-() const;
  Rational operator+(const Rational &o) const;
  Rational operator-(const Rational &o) const;
  Rational operator*(const Rational &o) const;
  Rational operator/(const Rational &o) const; // throws std::domain_error on division by zero
  Rational &operator+=(const Rational &o) { return *this = *this + o; }
  Rational &operator-=(const Rational &o) { return *this = *this - o; }
  Rational &operator*=(const Rational &o) { return *this = *this * o; }
  Rational &operator/=(const Rational &o) { return *this = *this / o; }
  bool operator==(const Rational &o) const { return num_ == o.num_ && den_ == o.den_; }
  bool operator!=(const Rational &o) const { return !(*this == o); }
  bool operator<(const Rational &o) const;

private:
  int64_t num_ = 0;
  int64_t den_ = 1;
};

} // namespace stencilc
