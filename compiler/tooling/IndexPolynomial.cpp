//===- IndexPolynomial.cpp - Integer polynomials over index symbols --------===//
#include "tooling/IndexPolynomial.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace stencilc::tooling {

IndexPolynomial IndexPolynomial::constant(std::int64_t value) {
  IndexPolynomial p;
  p.add({}, value);
  return p;
}

IndexPolynomial IndexPolynomial::symbol(const std::string &name) {
  IndexPolynomial p;
  p.add({name}, 1);
  return p;
}

void IndexPolynomial::add(const Monomial &m, std::int64_t c) {
  if (c == 0)
    return;
  auto [it, inserted] = terms_.emplace(m, c);
  if (!inserted && (it->second += c) == 0)
    terms_.erase(it);
}

IndexPolynomial IndexPolynomial::operator+(const IndexPolynomial &o) const {
  IndexPolynomial r = *this;
  for (const auto &[m, c] : o.terms_)
    r.add(m, c);
  return r;
}

IndexPolynomial IndexPolynomial::operator-(const IndexPolynomial &o) const {
  return *this + o.scaled(-1);
}

IndexPolynomial IndexPolynomial::scaled(std::int64_t factor) const {
  IndexPolynomial r;
  for (const auto &[m, c] : terms_)
    r.add(m, c * factor);
  return r;
}

IndexPolynomial IndexPolynomial::operator*(const IndexPolynomial &o) const {
  IndexPolynomial r;
  for (const auto &[ma, ca] : terms_)
    for (const auto &[mb, cb] : o.terms_) {
      Monomial m = ma;
      m.insert(m.end(), mb.begin(), mb.end());
      std::sort(m.begin(), m.end());
      r.add(m, ca * cb);
    }
  return r;
}

std::optional<std::int64_t> IndexPolynomial::constantValue() const {
  if (terms_.empty())
    return 0;
  if (terms_.size() == 1 && terms_.begin()->first.empty())
    return terms_.begin()->second;
  return std::nullopt;
}

std::int64_t IndexPolynomial::coefficient(const Monomial &m) const {
  auto it = terms_.find(m);
  return it == terms_.end() ? 0 : it->second;
}

bool IndexPolynomial::mentions(const std::string &symbol) const {
  for (const auto &[m, c] : terms_)
    if (std::find(m.begin(), m.end(), symbol) != m.end())
      return true;
  return false;
}

std::optional<IndexPolynomial> IndexPolynomial::linearCoefficient(const std::string &symbol,
                                                                  IndexPolynomial &rest) const {
  IndexPolynomial coeff;
  rest = IndexPolynomial();
  for (const auto &[m, c] : terms_) {
    auto n = std::count(m.begin(), m.end(), symbol);
    if (n == 0) {
      rest.add(m, c);
      continue;
    }
    if (n > 1)
      return std::nullopt;
    Monomial reduced = m;
    reduced.erase(std::find(reduced.begin(), reduced.end(), symbol));
    coeff.add(reduced, c);
  }
  return coeff;
}

IndexPolynomial IndexPolynomial::substituted(const std::string &symbol,
                                             const IndexPolynomial &value) const {
  IndexPolynomial r;
  for (const auto &[m, c] : terms_) {
    IndexPolynomial term = constant(c);
    for (const std::string &s : m)
      term = term * (s == symbol ? value : IndexPolynomial::symbol(s));
    r = r + term;
  }
  return r;
}

Monomial IndexPolynomial::leadingMonomial() const {
  Monomial best;
  for (const auto &[m, c] : terms_)
    if (m.size() > best.size())
      best = m;
  return best;
}

std::string IndexPolynomial::str() const {
  if (terms_.empty())
    return "0";
  std::vector<std::pair<Monomial, std::int64_t>> ordered(terms_.begin(), terms_.end());
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
  std::string text;
  for (const auto &[m, c] : ordered) {
    std::int64_t magnitude = std::llabs(c);
    // Appends only: g++ 12 reports a false -Wrestrict for assigning a literal
    // to a string here and for "literal" + string.
    if (!text.empty())
      text += c < 0 ? " - " : " + ";
    else if (c < 0)
      text += '-';
    std::string factors;
    for (const std::string &s : m) {
      if (!factors.empty())
        factors += " * ";
      factors += s;
    }
    if (factors.empty())
      text += std::to_string(magnitude);
    else if (magnitude == 1)
      text += factors;
    else
      text += std::to_string(magnitude) + " * " + factors;
  }
  return text;
}

std::optional<std::vector<std::int64_t>>
decomposeOffset(const IndexPolynomial &base, const std::vector<IndexPolynomial> &outerStrides) {
  IndexPolynomial rest = base;
  std::vector<std::int64_t> outer;
  for (const IndexPolynomial &stride : outerStrides) {
    std::int64_t d = 0;
    if (auto c = stride.constantValue()) {
      if (*c == 0)
        return std::nullopt;
      auto r = rest.constantValue();
      if (!r)
        return std::nullopt;
      d = static_cast<std::int64_t>(std::llround(double(*r) / double(*c)));
    } else {
      Monomial lead = stride.leadingMonomial();
      std::int64_t num = rest.coefficient(lead), den = stride.coefficient(lead);
      if (num % den != 0)
        return std::nullopt;
      d = num / den;
    }
    rest = rest - stride.scaled(d);
    outer.push_back(d);
  }
  auto dx = rest.constantValue();
  if (!dx)
    return std::nullopt;
  // Offsets are returned x first: (dx, dy, dz).
  std::vector<std::int64_t> offset{*dx};
  for (auto it = outer.rbegin(); it != outer.rend(); ++it)
    offset.push_back(*it);
  return offset;
}

} // namespace stencilc::tooling
