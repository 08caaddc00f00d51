//===- KernelIR.cpp -------------------------------------------------------===//
#include "kernel/KernelIR.h"
#include "passes/Pipeline.h"

#include "kernel/Lowering.h"

#include <algorithm>

namespace stencilc::kernel {

const char *targetName(Target t) { return t == Target::Cpu ? "cpu" : "cuda"; }

const char *varName(Var v) {
  switch (v) {
  case Var::X: return "x";
  case Var::Y: return "y";
  case Var::Z: return "z";
  case Var::ZIn: return "zi";
  case Var::ZDone: return "zdone";
  }
  return "?";
}

const char *spanName(Span s) {
  switch (s) {
  case Span::Box: return "box";
  case Span::Tile: return "tile";
  case Span::March: return "march";
  case Span::Range: return "range";
  case Span::Widened: return "widened";
  }
  return "?";
}

const char *scheduleName(Schedule s) {
  switch (s) {
  case Schedule::Threads: return "threads";
  case Schedule::Serial: return "serial";
  case Schedule::Vector: return "vector";
  }
  return "?";
}

const char *valueNameText(ValueName v) {
  switch (v) {
  case ValueName::Acc: return "acc";
  case ValueName::Sum: return "sum";
  case ValueName::Value: return "value";
  }
  return "?";
}

const char *stageDestName(StageDest d) {
  switch (d) {
  case StageDest::VectorBlock: return "vector-block";
  case StageDest::RowBuffer: return "row-buffer";
  case StageDest::Shared: return "shared";
  case StageDest::SharedAuto: return "shared-if-fits";
  }
  return "?";
}

const char *guardName(GuardKind g) {
  switch (g) {
  case GuardKind::OutputInSpan: return "output-in";
  case GuardKind::AllOutputsIn: return "all-outputs-in";
  case GuardKind::DoneInSpan: return "done-in";
  case GuardKind::Active: return "active";
  case GuardKind::FirstPlane: return "first-plane";
  case GuardKind::NextInSpan: return "next-in";
  }
  return "?";
}

const char *nodeKindName(NodeKind k) {
  switch (k) {
  case NodeKind::Loop: return "loop";
  case NodeKind::Tiles: return "tiles";
  case NodeKind::Guard: return "if";
  case NodeKind::Call: return "call";
  case NodeKind::StageRows: return "stage-rows";
  case NodeKind::StagedRows: return "staged-rows";
  case NodeKind::StageTile: return "stage-tile";
  case NodeKind::WaitTiles: return "wait-tiles";
  case NodeKind::Barrier: return "barrier";
  case NodeKind::ShiftQueues: return "shift-queues";
  case NodeKind::ShiftPartials: return "shift-partials";
  case NodeKind::Sum: return "sum";
  case NodeKind::Accumulate: return "accumulate";
  case NodeKind::Store: return "store";
  }
  return "?";
}

const char *xLoopReason(XLoop x) {
  switch (x) {
  case XLoop::WholeBlocks: return "whole vector blocks";
  case XLoop::SeveralPlanes: return "several output planes per x loop";
  case XLoop::PartialSums: return "it adds to partial sums";
  case XLoop::StagedElsewhere: return "it reads table rows another function staged";
  case XLoop::NotVectorArithmetic: return "a factor has no lane-by-lane spelling";
  case XLoop::NothingToGain: return "no table it stages and no row read at enough x offsets";
  }
  return "?";
}

const char *functionKindName(FunctionKind k) {
  switch (k) {
  case FunctionKind::Row: return "row";
  case FunctionKind::Stage: return "stage";
  case FunctionKind::Driver: return "driver";
  case FunctionKind::Device: return "device";
  }
  return "?";
}

const Function *SweepKernels::find(const std::string &name) const {
  for (const Function &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

const std::vector<std::string> &cudaStepVariants() {
  static const std::vector<std::string> v = {"gmem", "ro", "traditional", "planes"};
  return v;
}

bool marchesInZ(const KernelModule &module, const std::string &variant) {
  for (const SweepKernels &sweep : module.sweeps)
    for (const Variant &v : sweep.variants)
      if (v.name == variant)
        if (const Function *entry = sweep.find(v.entry); entry && entry->params.planesPerBlock)
          return true;
  return false;
}

std::vector<int> rowCounts(const KernelModule &module, const std::string &variant) {
  for (const SweepKernels &sweep : module.sweeps)
    for (const Variant &v : sweep.variants)
      if (v.name == variant)
        if (const Function *entry = sweep.find(v.entry); entry && !entry->rowCounts.empty())
          return entry->rowCounts;
  return {1};
}

const std::vector<int> &cudaRowCounts() {
  static const std::vector<int> counts = {1, 2, 4};
  return counts;
}

int outputAdvancing(const ir::Stencil &s, int field) {
  for (size_t o = 0; o < s.fields.size(); ++o)
    if (s.fields[o].role == ir::FieldRole::Output && s.fields[o].advances == field)
      return int(o);
  return -1;
}

namespace {
void collectRings(const ir::Stencil &s, const LinearStencil &linear, const std::vector<Node> &body,
                  std::vector<int> &fields) {
  for (const Node &n : body) {
    if (n.kind == NodeKind::Store && n.ring) {
      const int field = s.fields[linear.updates[n.update].output].advances;
      if (std::find(fields.begin(), fields.end(), field) == fields.end())
        fields.push_back(field);
    }
    collectRings(s, linear, n.body, fields);
  }
}
} // namespace

std::vector<int> ringFields(const ir::Stencil &s, const LinearStencil &linear, const Function &f) {
  std::vector<int> fields;
  collectRings(s, linear, f.body, fields);
  return fields;
}

KernelModule lowerToKernels(const CompiledStencil &compiled, Target target) {
  return target == Target::Cpu ? lowerCpu(compiled) : lowerCuda(compiled);
}

} // namespace stencilc::kernel
