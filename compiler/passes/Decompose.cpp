//===- Decompose.cpp ------------------------------------------------------===//
#include "passes/Decompose.h"

#include "ir/Printer.h"

#include <fmt/format.h>

#include <algorithm>

namespace stencilc {

bool isCentreOnlyGroup(const LinearForm &form, const CoefGroup &group) {
  for (int t : group.terms) {
    const Term &term = form.terms[t];
    if (term.offset != ir::Offset{0, 0, 0})
      return false;
    for (const Term &other : form.terms)
      if (other.field == term.field && other.offset != ir::Offset{0, 0, 0})
        return false;
  }
  return true;
}

Decomposition wholeStencil(const LinearStencil &linear) {
  SubStencil all;
  all.reason = "the whole stencil in one sweep";
  for (const LinearForm &form : linear.updates) {
    std::vector<int> groups;
    for (size_t g = 0; g < form.groups.size(); ++g)
      groups.push_back(int(g));
    all.groups.push_back(std::move(groups));
  }
  return {{std::move(all)}};
}

bool splitStencil(const LinearStencil &linear, int parts, Decomposition &out, std::string &why) {
  // The splittable groups of all updates, in update then group order, with their sizes.
  struct Item {
    int update, group, terms;
  };
  std::vector<Item> items;
  int totalTerms = 0;
  out.sweeps.assign(parts, {});
  for (SubStencil &sweep : out.sweeps)
    sweep.groups.resize(linear.updates.size());
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    for (size_t g = 0; g < form.groups.size(); ++g) {
      if (isCentreOnlyGroup(form, form.groups[g])) {
        out.sweeps[0].groups[u].push_back(int(g));
        continue;
      }
      int terms = int(form.groups[g].terms.size());
      items.push_back({int(u), int(g), terms});
      totalTerms += terms;
    }
  }
  if (parts < 1 || int(items.size()) < parts) {
    why = fmt::format("cannot split into {} sweeps: the stencil has {} groups that can move", parts,
                      items.size());
    return false;
  }
  // Greedy contiguous runs: close a run once it holds its share of the terms,
  // leaving at least one group for each later run.
  int part = 0, inPart = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    const Item &item = items[i];
    out.sweeps[part].groups[item.update].push_back(item.group);
    inPart += item.terms;
    int remainingItems = int(items.size() - i - 1);
    int remainingParts = parts - part - 1;
    bool share = inPart * parts >= totalTerms;
    if (remainingParts > 0 && (share || remainingItems == remainingParts)) {
      ++part;
      inPart = 0;
    }
  }
  for (size_t p = 0; p < out.sweeps.size(); ++p) {
    for (auto &groups : out.sweeps[p].groups)
      std::sort(groups.begin(), groups.end());
    out.sweeps[p].reason = fmt::format("forced split, part {} of {}", p + 1, parts);
  }
  return true;
}

bool verifyDecomposition(const LinearStencil &linear, const Decomposition &d,
                         std::vector<std::string> &problems) {
  size_t before = problems.size();
  if (d.sweeps.empty())
    problems.push_back("decomposition has no sweep");
  for (size_t u = 0; u < linear.updates.size(); ++u) {
    const LinearForm &form = linear.updates[u];
    std::vector<int> seen(form.groups.size(), 0);
    for (size_t s = 0; s < d.sweeps.size(); ++s) {
      if (d.sweeps[s].groups.size() != linear.updates.size()) {
        problems.push_back(fmt::format("sweep {} does not list every update", s));
        return false;
      }
      for (int g : d.sweeps[s].groups[u]) {
        if (g < 0 || g >= int(form.groups.size())) {
          problems.push_back(fmt::format("sweep {}: update {} has no group {}", s, u, g));
          continue;
        }
        ++seen[g];
        if (s != 0 && isCentreOnlyGroup(form, form.groups[g]))
          problems.push_back(
              fmt::format("sweep {}: centre-only group g{} of update {} must be in sweep 0", s, g,
                          u));
      }
    }
    for (size_t g = 0; g < seen.size(); ++g)
      if (seen[g] != 1)
        problems.push_back(
            fmt::format("update {}: group g{} is in {} sweeps, not exactly one", u, g, seen[g]));
  }
  return problems.size() == before;
}

void printDecomposition(const ir::Stencil &s, const LinearStencil &linear, const Decomposition &d,
                        llvm::raw_ostream &os) {
  os << fmt::format("  decomposition: {} sweep{}\n", d.sweeps.size(),
                    d.sweeps.size() == 1 ? "" : "s");
  for (size_t i = 0; i < d.sweeps.size(); ++i) {
    const SubStencil &sweep = d.sweeps[i];
    os << fmt::format("    sweep {} ({}):\n", i, sweep.reason);
    for (size_t u = 0; u < sweep.groups.size(); ++u) {
      const LinearForm &form = linear.updates[u];
      int terms = 0;
      std::string list;
      for (int g : sweep.groups[u]) {
        terms += int(form.groups[g].terms.size());
        list += fmt::format("{}g{}", list.empty() ? "" : " ", g);
      }
      os << fmt::format("      {} {} {} ({} groups, {} terms)\n", s.fields[form.output].name,
                        i == 0 ? "=" : "+=", list.empty() ? "nothing" : list,
                        sweep.groups[u].size(), terms);
    }
  }
}

} // namespace stencilc
