//===- GpuBenchDataTest.cpp - The GPU benchmark's fills and rotations -----===//
//
// bench/gpu/BenchData.h moves the time levels on between timed steps, on the
// erased arguments the kernels take: one step as rt::KernelData::rotate does,
// two steps as a generated rotateTwoSteps does. A wrong rotation would time a
// step that reads what it writes, so the permutations are checked here; and
// the layered index fill (rt::fillLayered) stays within the table.
//
//===----------------------------------------------------------------------===//
#include "BenchData.h"

#include <gtest/gtest.h>

#include <set>

using namespace stencilc;

namespace {

/// A leapfrog stencil's fields: u_prev, u (time), u_next (next level of u, may overwrite
/// u_prev), v (in).
rt::KernelInfo leapfrogInfo() {
  rt::KernelInfo info{"leapfrog", "leapfrog", "float", 3, 1, 1, {}, {}, {}, nullptr};
  info.fields = {{"u_prev", "time", "float", -1, -1, {}, 0},
                 {"u", "time", "float", -1, -1, {}, 0},
                 {"u_next", "out", "float", 0, 1, {}, 0},
                 {"v", "in", "float", -1, -1, {}, 0}};
  return info;
}

/// A first-order-in-time stencil: u (time), u_next (next level of u), index (uint16).
rt::KernelInfo firstOrderInfo() {
  rt::KernelInfo info{"heat", "heat", "float", 3, 1, 1, {}, {}, {}, nullptr};
  info.fields = {{"u", "time", "float", -1, -1, {}, 0},
                 {"u_next", "out", "float", -1, 0, {}, 0},
                 {"vidx", "index", "uint16", -1, -1, {}, 0}};
  return info;
}

std::vector<const void *> origins(const std::vector<rt::ErasedField> &fields) {
  std::vector<const void *> o;
  for (const rt::ErasedField &f : fields)
    o.push_back(f.origin);
  return o;
}

const rt::GridShape kShape{3, 9, 7, 5, 1};

TEST(GpuBenchData, OneStepRotationIsKernelDataRotation) {
  for (const rt::KernelInfo &info : {leapfrogInfo(), firstOrderInfo()}) {
    rt::KernelData data(info, kShape, 4, /*inPlace=*/false);
    std::vector<rt::ErasedField> fields = data.args().fields;
    for (int step = 0; step < 5; ++step) {
      data.rotate();
      bench::rotateOneStep(info, fields);
      EXPECT_EQ(origins(fields), origins(data.args().fields)) << info.name << " step " << step;
    }
  }
}

TEST(GpuBenchData, TwoStepRotationHandsOnBothLevels) {
  // Leapfrog: u_prev takes the first step's level, u the second's; u_next and the second
  // output take the two storages nothing reads any more (the generated rotateTwoSteps).
  const rt::KernelInfo leapfrog = leapfrogInfo();
  rt::KernelData data(leapfrog, kShape, 4, false);
  std::vector<rt::ErasedField> fields = data.args().fields;
  rt::Grid<float> secondGrid(kShape);
  std::vector<rt::ErasedField> second{{secondGrid.origin(), 0, 0}};
  const std::vector<const void *> before = origins(fields);
  const void *secondBefore = second[0].origin;
  bench::rotateTwoSteps(leapfrog, fields, second);
  EXPECT_EQ(fields[0].origin, before[2]);    // u_prev <- first step
  EXPECT_EQ(fields[1].origin, secondBefore); // u <- second step
  EXPECT_EQ(fields[2].origin, before[0]);    // u_next <- old u_prev
  EXPECT_EQ(second[0].origin, before[1]);    // second <- old u
  EXPECT_EQ(fields[3].origin, before[3]);    // v stays

  // First order: u takes the second step's level; the other two are free again.
  const rt::KernelInfo heat = firstOrderInfo();
  rt::KernelData heatData(heat, kShape, 4, false);
  std::vector<rt::ErasedField> heatFields = heatData.args().fields;
  std::vector<rt::ErasedField> heatSecond{{secondGrid.origin(), 0, 0}};
  const std::vector<const void *> heatBefore = origins(heatFields);
  bench::rotateTwoSteps(heat, heatFields, heatSecond);
  EXPECT_EQ(heatFields[0].origin, secondBefore);
  EXPECT_EQ(heatFields[1].origin, heatBefore[0]);
  EXPECT_EQ(heatSecond[0].origin, heatBefore[1]);

  // Over many launches every field keeps a storage of its own.
  for (int launch = 0; launch < 7; ++launch) {
    bench::rotateTwoSteps(leapfrog, fields, second);
    std::set<const void *> distinct;
    for (const void *o : origins(fields))
      distinct.insert(o);
    distinct.insert(second[0].origin);
    EXPECT_EQ(distinct.size(), 5u) << "launch " << launch;
  }
}

TEST(GpuBenchData, FillsStayInTheirRanges) {
  const rt::KernelInfo heat = firstOrderInfo();
  for (bench::IndexFill index : {bench::IndexFill::Random, bench::IndexFill::Layered}) {
    rt::KernelData data(heat, kShape, 5, false);
    bench::fillForTiming<float>(data, 5, index);
    const auto &vidx = data.field<std::uint16_t>(2);
    const auto &u = data.field<float>(0);
    int previousAtOrigin = 0;
    vidx.forEachPointWithHalo([&](int i, int j, int k) {
      EXPECT_LT(vidx(i, j, k), 5);
      EXPECT_GE(u(i, j, k), -1.0f);
      EXPECT_LT(u(i, j, k), 1.0f);
      if (index == bench::IndexFill::Layered && i == 0 && j == 0) { // grows with depth
        EXPECT_GE(vidx(i, j, k), previousAtOrigin);
        previousAtOrigin = vidx(i, j, k);
      }
    });
  }
}

} // namespace
