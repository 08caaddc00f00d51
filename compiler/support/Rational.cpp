//===- Rational.cpp - Exact rational numbers for finite-difference weights -===//
//
// Every operation forms its exact result as a 128-bit fraction (products of
// two 64-bit values always fit), reduces it, and only then narrows it back
// to 64 bits; a reduced result that still does not fit is an overflow.
//
//===----------------------------------------------------------------------===//
#include "support/Rational.h"

#include <limits>
#include <stdexcept>

namespace stencilc {

namespace {

using Wide = __int128;
using UWide = unsigned __int128;

UWide magnitude(Wide v) { return v < 0 ? UWide(0) - UWide(v) : UWide(v); }

UWide gcd(UWide a, UWide b) {
  while (b != 0) {
    UWide t = a % b;
    a = b;
    b = t;
  }
  return a;
}

bool fitsInt64(Wide v) {
  return v >= std::numeric_limits<int64_t>::min() && v <= std::numeric_limits<int64_t>::max();
}

} // namespace

/// Reduces num/den in place to lowest terms with den > 0, checking that the
/// result fits in 64 bits.
static void normalize(Wide &num, Wide &den) {
  if (den == 0)
    throw std::domain_error("rational division by zero");
  if (den < 0) {
    num = -num;
    den = -den;
  }
  // gcd(0, den) = den, so zero becomes 0/1.
  UWide g = gcd(magnitude(num), UWide(den));
  num /= Wide(g);
  den /= Wide(g);
  if (!fitsInt64(num) || !fitsInt64(den))
    throw std::overflow_error("rational overflow");
}

/// The Rational equal to the 128-bit fraction num/den, or a throw.
static Rational fromWide(Wide num, Wide den) {
  normalize(num, den);
  return Rational(int64_t(num), int64_t(den));
}

Rational::Rational(int64_t num, int64_t den) {
  Wide n = num, d = den;
  normalize(n, d);
  num_ = int64_t(n);
  den_ = int64_t(d);
}

std::string Rational::str() const {
  if (den_ == 1)
    return std::to_string(num_);
  return std::to_string(num_) + "/" + std::to_string(den_);
}

Rational Rational::operator-() const { return fromWide(-Wide(num_), den_); }

Rational Rational::operator+(const Rational &o) const {
  // |num| * |den| < 2^126, so the sum of two such products fits in 127 bits.
  return fromWide(Wide(num_) * o.den_ + Wide(o.num_) * den_, Wide(den_) * o.den_);
}

Rational Rational::operator-(const Rational &o) const {
  return fromWide(Wide(num_) * o.den_ - Wide(o.num_) * den_, Wide(den_) * o.den_);
}

Rational Rational::operator*(const Rational &o) const {
  return fromWide(Wide(num_) * o.num_, Wide(den_) * o.den_);
}

Rational Rational::operator/(const Rational &o) const {
  if (o.num_ == 0)
    throw std::domain_error("rational division by zero");
  return fromWide(Wide(num_) * o.den_, Wide(den_) * o.num_);
}

bool Rational::operator<(const Rational &o) const {
  // Denominators are positive, so cross-multiplying keeps the order.
  return Wide(num_) * o.den_ < Wide(o.num_) * den_;
}

} // namespace stencilc
