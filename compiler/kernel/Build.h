//===- Build.h - Node constructors for the kernel lowerings ----------------===//
#pragma once

#include "kernel/KernelIR.h"

namespace stencilc::kernel::build {

inline Node loop(Var var, Span span, Schedule schedule, std::vector<Node> body, int step = 1,
                 int low = 0, int high = 0) {
  Node n;
  n.kind = NodeKind::Loop;
  n.var = var;
  n.span = span;
  n.schedule = schedule;
  n.step = step;
  n.low = low;
  n.high = high;
  n.body = std::move(body);
  return n;
}

inline Node tiles(std::vector<Node> body) {
  Node n;
  n.kind = NodeKind::Tiles;
  n.schedule = Schedule::Threads;
  n.body = std::move(body);
  return n;
}

inline Node guard(GuardKind kind, Span span, std::vector<Node> body, int dz = 0) {
  Node n;
  n.kind = NodeKind::Guard;
  n.guard = kind;
  n.guardSpan = span;
  n.dz = dz;
  n.hasDz = kind == GuardKind::OutputInSpan;
  n.body = std::move(body);
  return n;
}

inline Node call(const std::string &callee, Var row = Var::Z, int dz = 0) {
  Node n;
  n.kind = NodeKind::Call;
  n.callee = callee;
  n.row = row;
  n.dz = dz;
  return n;
}

inline Node barrier(const std::string &why) {
  Node n;
  n.kind = NodeKind::Barrier;
  n.note = why;
  return n;
}

inline Node stageRows(int table, int index, int beginRow, int endRow, StageDest dest, int slot,
                      int planeShift = 0) {
  Node n;
  n.kind = NodeKind::StageRows;
  n.table = table;
  n.index = index;
  n.beginRow = beginRow;
  n.endRow = endRow;
  n.dest = dest;
  n.slot = slot;
  n.planeShift = planeShift;
  return n;
}

inline Node sum(int update, std::vector<int> groups, ValueName value) {
  Node n;
  n.kind = NodeKind::Sum;
  n.update = update;
  n.groups = std::move(groups);
  n.value = value;
  return n;
}

inline Node withDz(Node n, int dz) {
  n.hasDz = true;
  n.dz = dz;
  return n;
}

inline Node accumulate(int update, int slot, ValueName value) {
  Node n;
  n.kind = NodeKind::Accumulate;
  n.update = update;
  n.slot = slot;
  n.value = value;
  return n;
}

inline Node store(int update, bool add, ValueName value) {
  Node n;
  n.kind = NodeKind::Store;
  n.update = update;
  n.add = add;
  n.value = value;
  return n;
}

} // namespace stencilc::kernel::build
