//===- AdjointTest.cpp - The derived adjoint is the transpose of the step --===//
//
// For every stencil of dsl-examples/ and examples/wave, one sweep maps the
// time levels (x: every family's current and previous level, interior points,
// zero halo) to the outputs (y = F x). Its transpose, by the construction of
// passes/Adjoint.h, is the adjoint stencil run twice: with the adjoint's
// current levels holding ŷ and its previous ones zero it gives the part of
// Fᵀŷ on the current levels; with them swapped, the part on the previous
// ones. Both run in double through the reference evaluator, and
// ⟨F x, ŷ⟩ = ⟨x, Fᵀ ŷ⟩ to rounding. Coefficient fields and tables are random
// (halos included) and shared, and each shifted index field is bound to the
// original read at its offset.
//
//===----------------------------------------------------------------------===//
#include "passes/Adjoint.h"
#include "eval/ReferenceEvaluator.h"
#include "frontend/Frontend.h"
#include "ir/linear/LinearForm.h"

#include "stencilc/ShiftedField.h"

#include "passes/Linearize.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace stencilc;

namespace {

struct Compiled {
  ir::Stencil forward, adjoint;
  LinearStencil forwardLinear, adjointLinear;
};

Compiled compile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path);
  EXPECT_TRUE(bool(buffer)) << path;
  llvm::SourceMgr sm;
  const unsigned id = sm.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  DiagnosticEngine diag(sm, llvm::errs());
  auto module = parseModule(id, diag);
  EXPECT_TRUE(module && module->stencils.size() == 1) << path;
  Compiled c{std::move(module->stencils[0]), {}, {}, {}};
  c.forwardLinear = *linearize(c.forward, diag);
  auto adjoint = adjointStencil(c.forward, c.forwardLinear, diag);
  EXPECT_TRUE(adjoint) << path;
  c.adjoint = std::move(*adjoint);
  c.adjointLinear = *linearize(c.adjoint, diag);
  EXPECT_FALSE(diag.hasErrors());
  return c;
}

bool interior(const rt::Grid<double> &g, int i, int j, int k) {
  return i >= 0 && i < g.nx() && j >= 0 && j < g.ny() && k >= 0 && k < g.nz();
}

void zeroHalo(rt::Grid<double> &g) {
  g.forEachPointWithHalo([&](int i, int j, int k) {
    if (!interior(g, i, j, k))
      g(i, j, k) = 0;
  });
}

double dot(const rt::Grid<double> &a, const rt::Grid<double> &b) {
  double s = 0;
  a.forEachInteriorPoint([&](int i, int j, int k) { s += a(i, j, k) * b(i, j, k); });
  return s;
}

/// |⟨Fx, ŷ⟩ − ⟨x, Fᵀŷ⟩| / max(|⟨Fx, ŷ⟩|, |⟨x, Fᵀŷ⟩|) for one sweep of `path`.
double dotTestMismatch(const std::string &path) {
  Compiled c = compile(path);
  const ir::Stencil &s = c.forward;
  eval::EvalSizes sizes;
  sizes.nx = 11;
  sizes.ny = 10;
  sizes.nz = s.dims == 3 ? 9 : 1;
  sizes.tableColumns = 5;
  sizes.halo = std::max({c.adjoint.radius, eval::stencilReach(c.adjoint), s.radius});
  eval::EvalData fwd = eval::makeRandomEvalData(s, sizes, 7);
  for (size_t f = 0; f < s.fields.size(); ++f)
    if (s.fields[f].role == ir::FieldRole::Time)
      zeroHalo(*fwd.grids[f]);
  eval::evaluateReference(s, fwd.bindings());

  // ŷ: random outputs' adjoints, one per output, zero halo.
  eval::EvalData seeds = eval::makeRandomEvalData(s, sizes, 99);
  std::vector<const rt::Grid<double> *> yhat(s.fields.size(), nullptr);
  double lhs = 0;
  for (const ir::Update &u : s.updates) {
    rt::Grid<double> &y = *seeds.grids[size_t(s.fields[size_t(u.output)].advances)];
    zeroHalo(y);
    yhat[size_t(u.output)] = &y;
    lhs += dot(*fwd.grids[size_t(u.output)], y);
  }

  eval::EvalData adj = eval::makeRandomEvalData(c.adjoint, sizes, 3);
  for (size_t f = 0; f < c.adjoint.fields.size(); ++f) {
    const ir::Field &field = c.adjoint.fields[f];
    if (field.role == ir::FieldRole::Input)
      *adj.grids[f] = fwd.grids[f]->clone();
    if (field.role != ir::FieldRole::Index)
      continue;
    if (f < s.fields.size()) {
      *adj.indexGrids[f] = fwd.indexGrids[f]->clone();
      continue;
    }
    auto shifted = rt::parseShiftedFieldName(field.name);
    EXPECT_TRUE(shifted) << field.name;
    const rt::Grid<int32_t> &base = *fwd.indexGrids[size_t(s.findField(shifted->base))];
    const auto o = shifted->offset;
    adj.indexGrids[f]->forEachInteriorPoint([&](int i, int j, int k) {
      (*adj.indexGrids[f])(i, j, k) = base(i + o[0], j + o[1], k + o[2]);
    });
  }
  for (size_t t = 0; t < fwd.tables.size(); ++t)
    for (int r = 0; r < fwd.tables[t]->rows(); ++r)
      for (int col = 0; col < fwd.tables[t]->cols(); ++col)
        (*adj.tables[t])(r, col) = (*fwd.tables[t])(r, col);
  adj.scalars = fwd.scalars;

  double rhs = 0;
  for (bool previous : {false, true}) {
    for (const ir::Update &u : s.updates) {
      const ir::Field &out = s.fields[size_t(u.output)];
      if (out.overwrites >= 0)
        adj.grids[size_t(out.overwrites)]->fill(0.0);
      adj.grids[size_t(out.advances)]->fill(0.0);
      const int slot = previous ? out.overwrites : out.advances;
      if (slot >= 0)
        *adj.grids[size_t(slot)] = yhat[size_t(u.output)]->clone();
    }
    eval::evaluateReference(c.adjoint, adj.bindings());
    for (const ir::Update &u : s.updates) {
      const ir::Field &out = s.fields[size_t(u.output)];
      const int level = previous ? out.overwrites : out.advances;
      if (level >= 0)
        rhs += dot(*fwd.grids[size_t(level)], *adj.grids[size_t(u.output)]);
    }
  }
  EXPECT_GT(std::abs(lhs), 1e-3) << "a dot test of nothing";
  return std::abs(lhs - rhs) / std::max(std::abs(lhs), std::abs(rhs));
}

class AdjointOfExample : public testing::TestWithParam<std::string> {};

TEST_P(AdjointOfExample, IsTheTransposeOfOneSweep) {
  EXPECT_LT(dotTestMismatch(std::string(STENCILC_SOURCE_DIR) + "/" + GetParam()), 1e-13);
}

INSTANTIATE_TEST_SUITE_P(
    Examples, AdjointOfExample,
    testing::Values("dsl-examples/acoustic_iso8.stencil", "dsl-examples/ete37.stencil",
                    "dsl-examples/ete73.stencil", "dsl-examples/heat2d.stencil",
                    "dsl-examples/laplacian7.stencil", "dsl-examples/lwc_elastic.stencil",
                    "dsl-examples/tti.stencil", "examples/wave/acoustic8_sponge.stencil",
                    "examples/wave/ete37_sponge.stencil"),
    [](const testing::TestParamInfo<std::string> &info) {
      std::string name = info.param.substr(info.param.rfind('/') + 1);
      return name.substr(0, name.find('.'));
    });

TEST(Adjoint, SelfAdjointUpdates) {
  auto selfAdjoint = [](const std::string &file) {
    Compiled c = compile(std::string(STENCILC_SOURCE_DIR) + "/" + file);
    return isSelfAdjoint(c.forwardLinear, c.adjointLinear);
  };
  // Constant coefficients and symmetric weights: the step is its own adjoint.
  EXPECT_TRUE(selfAdjoint("dsl-examples/laplacian7.stencil"));
  EXPECT_TRUE(selfAdjoint("dsl-examples/heat2d.stencil"));
  // Coefficients that vary in space are read at the neighbour in the adjoint.
  EXPECT_FALSE(selfAdjoint("dsl-examples/acoustic_iso8.stencil"));
  EXPECT_FALSE(selfAdjoint("dsl-examples/ete37.stencil"));
  EXPECT_FALSE(selfAdjoint("dsl-examples/tti.stencil"));
  EXPECT_FALSE(selfAdjoint("dsl-examples/lwc_elastic.stencil"));
  EXPECT_FALSE(selfAdjoint("examples/wave/acoustic8_sponge.stencil"));
}

TEST(Adjoint, EteReadsTheTableThroughShiftedIndexFields) {
  Compiled c = compile(std::string(STENCILC_SOURCE_DIR) + "/examples/wave/ete37_sponge.stencil");
  // vidx itself (the centre) and one shifted copy per other point of S.
  int shifted = 0;
  for (const ir::Field &f : c.adjoint.fields)
    if (f.role == ir::FieldRole::Index && f.name != "vidx") {
      auto parsed = rt::parseShiftedFieldName(f.name);
      ASSERT_TRUE(parsed) << f.name;
      EXPECT_EQ(parsed->base, "vidx");
      ++shifted;
    }
  EXPECT_EQ(shifted, 36);
  EXPECT_EQ(c.adjoint.name, "ete37_sponge_adjoint");
  EXPECT_EQ(c.adjointLinear.updates[0].terms.size(), 38u); // 37 points and -p_prev
}

TEST(Adjoint, ShiftedFieldNamesRoundTrip) {
  for (auto o : {std::array{0, 0, 0}, {-1, 0, 4}, {12, -3, -100}}) {
    auto parsed = rt::parseShiftedFieldName(rt::shiftedFieldName("v_idx", o));
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed->base, "v_idx");
    EXPECT_EQ(parsed->offset, o);
  }
  EXPECT_EQ(rt::shiftedFieldName("vidx", {-1, 0, 2}), "vidx_at_m1_0_2");
  for (const char *other :
       {"vidx", "vidx_at_1_2", "_at_1_2_3", "vidx_at_m0_1_2", "vidx_at_01_1_2", "vidx_at_1_2_x"})
    EXPECT_FALSE(rt::parseShiftedFieldName(other)) << other;
}

} // namespace
