//===- KernelTestSupport.h - Lower an example and walk its kernel IR -------===//
//
// The kernel IR tests lower the shipped examples through the real pipeline
// and look for nodes by kind and by where they sit (under a guard, in a
// vector loop). Expectations are derived from the sweep plan and the linear
// forms here, not from the lowering's own helpers, so that a test does not
// share a bug with what it tests.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "PlanTestSupport.h"

#include "kernel/KernelIR.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stencilc::testing {

using namespace stencilc::kernel;

inline const char *const kExamples[] = {"acoustic_iso8", "ete37", "ete73",      "heat2d",
                                        "laplacian7",    "tti",   "lwc_elastic"};

/// A compiled example and its kernels for one target.
struct Lowered {
  CompiledExample example;
  KernelModule module;
  const CompiledStencil &compiled() const { return example.only(); }
};

inline Lowered lower(const std::string &name, Target target, const PipelineOptions &options = {}) {
  Lowered l;
  l.example = compileExample(name, false, options);
  if (!l.example.compiled.empty())
    l.module = target == Target::Cpu ? l.example.only().cpuKernels // lowered by the pipeline
                                     : l.example.only().cudaKernels;
  return l;
}

inline PipelineOptions plannedFor(const std::string &target) {
  PipelineOptions options;
  options.target = *planTargetNamed(target);
  return options;
}

inline std::string suffix(int dz) {
  return dz < 0 ? "m" + std::to_string(-dz) : "p" + std::to_string(dz);
}

inline std::string name(int sweep, const std::string &rest) {
  return "sweep" + std::to_string(sweep) + "_" + rest;
}

inline const Function &function(const SweepKernels &k, const std::string &name) {
  static const Function missing;
  const Function *f = k.find(name);
  EXPECT_NE(f, nullptr) << "sweep " << k.sweep << " has no function " << name;
  return f ? *f : missing;
}

inline const Variant &variant(const SweepKernels &k, const std::string &name) {
  static const Variant missing;
  for (const Variant &v : k.variants)
    if (v.name == name)
      return v;
  ADD_FAILURE() << "sweep " << k.sweep << " has no variant " << name;
  return missing;
}

/// The nodes a node sits in, outermost first.
using Path = std::vector<const Node *>;

inline void walk(const std::vector<Node> &body,
                 const std::function<void(const Node &, const Path &)> &f, Path &path) {
  for (const Node &n : body) {
    f(n, path);
    path.push_back(&n);
    walk(n.body, f, path);
    path.pop_back();
  }
}

/// Every node of `kind` under `body`, in order, with where it sits.
inline std::vector<std::pair<const Node *, Path>> findNodes(const std::vector<Node> &body,
                                                            NodeKind kind) {
  std::vector<std::pair<const Node *, Path>> found;
  Path path;
  walk(
      body,
      [&](const Node &n, const Path &p) {
        if (n.kind == kind)
          found.push_back({&n, p});
      },
      path);
  return found;
}

inline std::vector<const Node *> nodes(const std::vector<Node> &body, NodeKind kind) {
  std::vector<const Node *> out;
  for (const auto &[n, path] : findNodes(body, kind))
    out.push_back(n);
  return out;
}

inline bool underGuard(const Path &path) {
  return std::any_of(path.begin(), path.end(),
                     [](const Node *n) { return n->kind == NodeKind::Guard; });
}

inline bool inVectorLoop(const Path &path) {
  return std::any_of(path.begin(), path.end(), [](const Node *n) {
    return n->kind == NodeKind::Loop && n->schedule == Schedule::Vector;
  });
}

/// The one loop over `var` in `f`.
inline const Node *loopOver(const Function &f, Var var) {
  const Node *found = nullptr;
  for (const Node *n : nodes(f.body, NodeKind::Loop))
    if (n->var == var) {
      EXPECT_EQ(found, nullptr) << f.name << " has two loops over " << varName(var);
      found = n;
    }
  EXPECT_NE(found, nullptr) << f.name << " has no loop over " << varName(var);
  return found;
}

/// The groups of `groups` with a point on plane offset dz.
inline std::vector<int> onPlane(const LinearForm &form, const std::vector<int> &groups, int dz) {
  std::vector<int> out;
  for (int g : groups)
    if (std::any_of(form.groups[g].terms.begin(), form.groups[g].terms.end(),
                    [&](int t) { return form.terms[t].offset[2] == dz; }))
      out.push_back(g);
  return out;
}

/// (table, index field) -> lowest and highest row that `e` reads.
using Columns = std::map<std::pair<int, int>, std::pair<int, int>>;

inline void tableReads(const ir::Expr &e, Columns &columns) {
  if (e.kind == ir::Expr::Kind::TableRef) {
    auto [it, fresh] = columns.try_emplace({e.id, e.indexField}, e.row, e.row);
    it->second = {std::min(it->second.first, e.row), std::max(it->second.second, e.row)};
  }
  for (const ir::ExprPtr &op : e.operands)
    tableReads(*op, columns);
}

/// The table columns every group of sweep `s` reads, and in sweep 0 the pointwise parts.
inline Columns sweepColumns(const CompiledStencil &c, int s) {
  Columns columns;
  for (size_t u = 0; u < c.linear.updates.size(); ++u) {
    const LinearForm &form = c.linear.updates[u];
    for (int g : c.decomposition.sweeps[s].groups[u])
      for (int t : form.groups[g].terms)
        for (const ir::ExprPtr &factor : form.terms[t].factors)
          tableReads(*factor, columns);
    if (s == 0 && form.pointwise)
      tableReads(*form.pointwise, columns);
  }
  return columns;
}

inline bool verifies(const CompiledStencil &c, const KernelModule &m, std::string &why) {
  std::vector<std::string> problems;
  const bool ok = verifyKernels(c, m, problems);
  for (const std::string &p : problems)
    why += p + "\n";
  return ok && problems.empty();
}

} // namespace stencilc::testing
