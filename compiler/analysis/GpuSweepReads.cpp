//===- GpuSweepReads.cpp --------------------------------------------------===//
#include "analysis/GpuSweepReads.h"

#include "ir/IR.h"

namespace stencilc::analysis {
namespace {

/// The fields an expression reads (coefficient factors: `in` and index fields).
void factorFields(const ir::Expr &e, std::set<int> &out) {
  if (e.kind == ir::Expr::Kind::FieldRef && e.id >= 0)
    out.insert(e.id);
  if (e.kind == ir::Expr::Kind::TableRef && e.indexField >= 0)
    out.insert(e.indexField);
  for (const ir::ExprPtr &op : e.operands)
    if (op)
      factorFields(*op, out);
}

/// The table rows an expression gathers.
void factorRows(const ir::Expr &e, std::set<std::pair<int, int>> &out) {
  if (e.kind == ir::Expr::Kind::TableRef)
    out.insert({e.id, e.row});
  for (const ir::ExprPtr &op : e.operands)
    if (op)
      factorRows(*op, out);
}

/// Per field (SweepReads::planesLoads) and per table row (Lookup::planesTimes): how many
/// times the planes kernel of one sweep reads it per output point.
struct PlanesReads {
  std::map<int, int> fields;
  std::map<std::pair<int, int>, int> rows;
};
PlanesReads planesCoefficientLoads(const CompiledStencil &c, const GpuSweepPlan &plan) {
  std::map<int, std::set<int>> offsets; // field -> plane offsets; kAtStore for the store
  std::map<std::pair<int, int>, std::set<int>> rowOffsets;
  constexpr int kAtStore = 1 << 20;
  for (const SweepUpdate &u : plan.updates) {
    const LinearForm &form = c.linear.updates[u.update];
    auto add = [&](int group, bool atStore) {
      for (int t : form.groups[group].terms) {
        std::set<int> fields;
        for (const ir::ExprPtr &f : form.terms[t].factors)
          factorFields(*f, fields);
        for (int f : fields)
          offsets[f].insert(atStore ? kAtStore : form.terms[t].offset[2]);
        std::set<std::pair<int, int>> rows;
        for (const ir::ExprPtr &f : form.terms[t].factors)
          factorRows(*f, rows);
        for (const auto &row : rows)
          rowOffsets[row].insert(atStore ? kAtStore : form.terms[t].offset[2]);
      }
    };
    for (int g : u.accumulated)
      add(g, u.sharedFactors);
    for (int g : u.atStore)
      add(g, true);
    if (form.pointwise) {
      std::set<int> fields;
      factorFields(*form.pointwise, fields);
      for (int f : fields)
        offsets[f].insert(kAtStore);
    }
  }
  PlanesReads reads;
  for (const auto &[field, set] : offsets)
    reads.fields[field] = int(set.size());
  for (const auto &[row, set] : rowOffsets)
    reads.rows[row] = int(set.size());
  return reads;
}

void collectFactorReads(const ir::Stencil &s, const ir::Expr &e, SweepReads &out) {
  if (e.kind == ir::Expr::Kind::FieldRef && e.id >= 0) {
    const ir::Field &f = s.fields[e.id];
    int bytes = f.role == ir::FieldRole::Index ? ir::indexTypeBytes(f.indexType)
                                               : ir::elemTypeBytes(s.elemType);
    out.reads.insert({e.id, e.offset[0], e.offset[1], e.offset[2], bytes});
  }
  if (e.kind == ir::Expr::Kind::TableRef && e.indexField >= 0) {
    const ir::Field &f = s.fields[e.indexField];
    out.reads.insert({e.indexField, 0, 0, 0, ir::indexTypeBytes(f.indexType)});
  }
  for (const ir::ExprPtr &op : e.operands)
    if (op)
      collectFactorReads(s, *op, out);
}

} // namespace

std::vector<SweepReads> sweepReads(const CompiledStencil &c) {
  const ir::Stencil &s = *c.stencil;
  const int elem = ir::elemTypeBytes(s.elemType);
  std::vector<SweepReads> sweeps;
  for (size_t i = 0; i < c.decomposition.sweeps.size(); ++i) {
    SweepReads r;
    r.accumulates = i > 0;
    for (size_t u = 0; u < c.linear.updates.size(); ++u) {
      const LinearForm &form = c.linear.updates[u];
      const std::vector<int> &groups = c.decomposition.sweeps[i].groups[u];
      if (i > 0 && groups.empty())
        continue;
      r.outputs.push_back(form.output);
      SweepReads one;
      for (int g : groups)
        for (int t : form.groups[g].terms) {
          const Term &term = form.terms[t];
          one.reads.insert({term.field, term.offset[0], term.offset[1], term.offset[2], elem});
          for (const ir::ExprPtr &f : term.factors)
            collectFactorReads(s, *f, one);
        }
      if (i == 0 && form.pointwise)
        collectFactorReads(s, *form.pointwise, one);
      r.reads.insert(one.reads.begin(), one.reads.end());
    }
    if (i < c.sweepPlan.gpu.sweeps.size()) {
      PlanesReads planes = planesCoefficientLoads(c, c.sweepPlan.gpu.sweeps[i]);
      r.planesLoads = planes.fields;
      for (const auto &[key, place] : c.sweepPlan.gpu.sweeps[i].placement) {
        auto times = planes.rows.find(key);
        r.lookups.push_back({key.first, key.second,
                             place.space == TableSpace::Shared || place.space == TableSpace::Auto,
                             times == planes.rows.end() ? 1 : times->second});
      }
    }
    sweeps.push_back(std::move(r));
  }
  return sweeps;
}

} // namespace stencilc::analysis
