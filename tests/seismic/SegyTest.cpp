//===- SegyTest.cpp - SEG-Y models and gathers: round trips and refusals ---===//
//
// examples/seismic-io: a velocity model and a shot gather written and read
// back keep their values and geometry, the headers hold what docs/SEISMIC.md
// §Files says (read with segyio itself, not through our reader), and a
// truncated, foreign, integer-format or irregular file is refused with the
// sizes that make it so, leaving no partial file from a failed write.
//
//===----------------------------------------------------------------------===//
#include "RunGeometry.h"
#include "SegyFile.h"
#include "SegyGather.h"
#include "SegyModel.h"

#include <segyio/segy.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fs = std::filesystem;
using namespace seisio;
namespace rt = stencilc::rt;

namespace {

class SegyTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("segy-test-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

rt::Grid<float> sampleModel(int nx, int ny, int nz) {
  rt::Grid<float> m = rt::Grid<float>::make3d(nx, ny, nz, 0);
  m.fillWith([](int i, int j, int k) { return 1500.0f + 100.0f * i + 10.0f * j + 0.25f * k; });
  return m;
}

Geometry sampleGeometry() {
  Geometry g;
  g.nx = 5;
  g.ny = 4;
  g.nz = 7;
  g.dx = 12.5;
  g.dy = 25;
  g.dz = 6.25;
  g.x0 = 1000;
  g.y0 = -250.5;
  g.z0 = 30;
  return g;
}

/// The message of the std::runtime_error `f` throws; fails the test if none.
template <typename F> std::string errorOf(F f) {
  try {
    f();
  } catch (const std::exception &e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

void truncate(const std::string &path, long bytes) {
  fs::resize_file(path, fs::file_size(path) - bytes);
}

TEST_F(SegyTest, ModelRoundTripKeepsValuesAndGeometry) {
  const Geometry g = sampleGeometry();
  const rt::Grid<float> model = sampleModel(g.nx, g.ny, g.nz);
  writeSegyModel(path("m.segy"), model, g);
  EXPECT_FALSE(fs::exists(path("m.segy.part")));

  const Geometry read = readSegyModelGeometry(path("m.segy"));
  EXPECT_EQ(read.nx, g.nx);
  EXPECT_EQ(read.ny, g.ny);
  EXPECT_EQ(read.nz, g.nz);
  EXPECT_DOUBLE_EQ(read.dx, g.dx);
  EXPECT_DOUBLE_EQ(read.dy, g.dy);
  EXPECT_DOUBLE_EQ(read.dz, g.dz);
  EXPECT_DOUBLE_EQ(read.x0, g.x0);
  EXPECT_DOUBLE_EQ(read.y0, g.y0);
  EXPECT_DOUBLE_EQ(read.z0, g.z0);
  EXPECT_TRUE(read.lateralFromFile);

  rt::Grid<float> back = rt::Grid<float>::make3d(g.nx, g.ny, g.nz, 0);
  readSegyModel(path("m.segy"), read, {0, 0, 0, g.nx, g.ny, g.nz}, back);
  model.forEachInteriorPoint(
      [&](int i, int j, int k) { ASSERT_EQ(back(i, j, k), model(i, j, k)) << i << j << k; });
}

TEST_F(SegyTest, ModelPartIsReadWithItsHaloInsideTheModel) {
  const Geometry g = sampleGeometry();
  const rt::Grid<float> model = sampleModel(g.nx, g.ny, g.nz);
  writeSegyModel(path("m.segy"), model, g);
  // The box x in [2, 5), y in [0, 2), z in [3, 7) with a halo of 1.
  const rt::Box part{2, 0, 3, 5, 2, 7};
  rt::Grid<float> local = rt::Grid<float>::make3d(3, 2, 4, 1);
  local.fill(-1.0f);
  readSegyModel(path("m.segy"), g, part, local);
  for (int lk = -1; lk <= 4; ++lk)
    for (int lj = -1; lj <= 2; ++lj)
      for (int li = -1; li <= 3; ++li) {
        const int i = li + 2, j = lj, k = lk + 3;
        const bool inModel = i < g.nx && j >= 0 && k < g.nz;
        EXPECT_EQ(local(li, lj, lk), inModel ? model(i, j, k) : -1.0f) << i << " " << j << " " << k;
      }
}

TEST_F(SegyTest, ModelHeadersFollowTheDepthConvention) {
  const Geometry g = sampleGeometry();
  writeSegyModel(path("m.segy"), sampleModel(g.nx, g.ny, g.nz), g);
  // Read with segyio directly: dz in the interval field in mm, z0 in the delay in m.
  segy_file *f = segy_open(path("m.segy").c_str(), "rb");
  ASSERT_NE(f, nullptr);
  char binary[SEGY_BINARY_HEADER_SIZE];
  ASSERT_EQ(segy_binheader(f, binary), SEGY_OK);
  int32_t interval = 0;
  segy_get_bfield(binary, SEGY_BIN_INTERVAL, &interval);
  EXPECT_EQ(interval, 6250);
  EXPECT_EQ(segy_format(binary), SEGY_IEEE_FLOAT_4_BYTE);
  EXPECT_EQ(segy_samples(binary), g.nz);
  char header[SEGY_TRACE_HEADER_SIZE];
  const int traceBytes = segy_trsize(SEGY_IEEE_FLOAT_4_BYTE, g.nz);
  ASSERT_EQ(segy_traceheader(f, 7, header, segy_trace0(binary), traceBytes), SEGY_OK);
  int32_t inline_ = 0, crossline = 0, x = 0, scalar = 0, delay = 0;
  segy_get_field(header, SEGY_TR_INLINE, &inline_);
  segy_get_field(header, SEGY_TR_CROSSLINE, &crossline);
  segy_get_field(header, SEGY_TR_CDP_X, &x);
  segy_get_field(header, SEGY_TR_SOURCE_GROUP_SCALAR, &scalar);
  segy_get_field(header, SEGY_TR_DELAY_REC_TIME, &delay);
  segy_close(f);
  EXPECT_EQ(inline_, 2); // trace 7 = j 1, i 2
  EXPECT_EQ(crossline, 3);
  EXPECT_EQ(scalar, -100);
  EXPECT_EQ(x, 102500); // 1000 + 2 * 12.5 m in cm
  EXPECT_EQ(delay, 30);
}

TEST_F(SegyTest, GatherRoundTripKeepsSamplesPositionsAndInterval) {
  ShotGather g;
  g.samples = 9;
  g.dt = 0.002;
  g.shot = 3;
  g.source = {250, 500, 40};
  for (int r = 0; r < 6; ++r)
    g.receivers.push_back({100.0 + 50 * r, 500, 40});
  g.values.resize(6 * 9);
  for (int r = 0; r < 6; ++r)
    for (int t = 0; t < 9; ++t)
      g.at(r, t) = float(r) - 0.125f * float(t);
  writeSegyGather(path("shot.sgy"), g);

  const ShotGather back = readSegyGather(path("shot.sgy"));
  EXPECT_EQ(back.samples, 9);
  EXPECT_DOUBLE_EQ(back.dt, 0.002);
  EXPECT_EQ(back.shot, 3);
  EXPECT_DOUBLE_EQ(back.source.x, 250);
  EXPECT_DOUBLE_EQ(back.source.y, 500);
  EXPECT_DOUBLE_EQ(back.source.z, 40);
  ASSERT_EQ(back.receivers.size(), 6u);
  for (int r = 0; r < 6; ++r) {
    EXPECT_DOUBLE_EQ(back.receivers[r].x, 100.0 + 50 * r);
    EXPECT_DOUBLE_EQ(back.receivers[r].z, 40);
  }
  EXPECT_EQ(back.values, g.values);
  EXPECT_NO_THROW(expectGatherSize(back, "shot.sgy", 6, 9));
  EXPECT_EQ(errorOf([&] { expectGatherSize(back, "shot.sgy", 7, 9); }),
            "shot.sgy: 6 traces of 9 samples, expected 7 of 9");

  // The trace header, read with segyio: interval in µs, signed offset in m.
  SegyReader file(path("shot.sgy"));
  const TraceHeader first = file.header(0);
  EXPECT_EQ(first.get(SEGY_TR_SAMPLE_INTER), 2000);
  EXPECT_EQ(first.get(SEGY_TR_SAMPLE_COUNT), 9);
  EXPECT_EQ(first.get(SEGY_TR_OFFSET), -150);
  EXPECT_EQ(file.header(5).get(SEGY_TR_OFFSET), 100);
  EXPECT_EQ(first.get(SEGY_TR_GROUP_X), 10000);
  EXPECT_EQ(first.get(SEGY_TR_FIELD_RECORD), 3);
}

TEST_F(SegyTest, GatherCutAtATraceBoundaryIsRefused) {
  ShotGather g;
  g.samples = 4;
  g.dt = 0.004;
  for (int r = 0; r < 3; ++r)
    g.receivers.push_back({10.0 * r, 0, 0});
  g.values.assign(12, 1.0f);
  writeSegyGather(path("g.segy"), g);
  truncate(path("g.segy"), 240 + 4 * 4); // the last trace, whole
  EXPECT_EQ(errorOf([&] { readSegyGather(path("g.segy")); }),
            path("g.segy") + ": 2 traces, but the binary header says 3 per ensemble (one shot): "
                             "truncated or not one shot gather");
}

TEST_F(SegyTest, GatherIntervalIsRoundedToTheMicrosecond) {
  ShotGather g;
  g.samples = 2;
  g.dt = 0.000888889;
  g.receivers = {{0, 0, 0}};
  g.values = {1, 2};
  writeSegyGather(path("g.segy"), g);
  EXPECT_DOUBLE_EQ(readSegyGather(path("g.segy")).dt, 0.000889);
  g.dt = 0.1; // beyond 16 bits of microseconds
  EXPECT_NE(errorOf([&] { writeSegyGather(path("h.segy"), g); }).find("1 to 65535 µs"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(path("h.segy")));
  EXPECT_FALSE(fs::exists(path("h.segy.part")));
}

TEST_F(SegyTest, TruncatedFileIsRefusedWithItsSizes) {
  const Geometry g = sampleGeometry();
  writeSegyModel(path("m.segy"), sampleModel(g.nx, g.ny, g.nz), g);
  truncate(path("m.segy"), 10);
  // 20 traces of 240 + 7 * 4 = 268 bytes, less 10.
  EXPECT_EQ(errorOf([&] { readSegyModelGeometry(path("m.segy")); }),
            path("m.segy") +
                ": truncated, or not SEG-Y: the 5350 bytes after the headers are not a whole "
                "number of 268-byte traces (240-byte header + 7 samples x 4 bytes): 19 traces "
                "and 258 bytes over");
  truncate(path("m.segy"), long(fs::file_size(path("m.segy"))) - 1000);
  EXPECT_EQ(errorOf([&] { readSegyModelGeometry(path("m.segy")); }),
            path("m.segy") + ": not a SEG-Y file, or truncated: 1000 bytes, shorter than the "
                             "3600-byte text and binary headers");
}

TEST_F(SegyTest, ForeignFileIsRefused) {
  {
    std::ofstream os(path("model.npy"), std::ios::binary);
    const std::string junk(5000, '\x93');
    os << junk;
  }
  const std::string error = errorOf([&] { readSegyModelGeometry(path("model.npy")); });
  EXPECT_EQ(error.rfind(path("model.npy") + ": not a SEG-Y file: binary header format code", 0), 0u)
      << error;
  EXPECT_EQ(errorOf([&] {
              readSegyGather(path("absent.segy"));
            }).rfind(path("absent.segy") + ": cannot read: ", 0),
            0u);
}

TEST_F(SegyTest, IntegerSamplesAreRefusedByName) {
  const Geometry g = sampleGeometry();
  writeSegyModel(path("m.segy"), sampleModel(g.nx, g.ny, g.nz), g);
  // Format code 3 (2-byte integers), big-endian, at bytes 3225-3226.
  {
    std::fstream f(path("m.segy"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(3224);
    f.put(0).put(3);
  }
  EXPECT_EQ(errorOf([&] { readSegyModelGeometry(path("m.segy")); }),
            path("m.segy") + ": samples are 2-byte integers (format code 3); only 4-byte floats "
                             "(IBM, code 1, or IEEE, code 5) are read");
}

TEST_F(SegyTest, IrregularTraceLayoutIsRefusedWithItsSizes) {
  // 3 traces on inline 1 then 4 on inline 2: not whole inlines.
  {
    SegyWriter w(path("odd.segy"), 4, 10000, 7, {});
    const float samples[4] = {1, 2, 3, 4};
    for (int t = 0; t < 7; ++t) {
      TraceHeader h;
      h.set(SEGY_TR_INLINE, t < 3 ? 1 : 2);
      h.set(SEGY_TR_CROSSLINE, t + 1);
      w.writeTrace(t, h, samples);
    }
    w.commit();
  }
  EXPECT_EQ(errorOf([&] { readSegyModelGeometry(path("odd.segy")); }),
            path("odd.segy") + ": 7 traces are not whole inlines of 3 traces (the first "
                               "inline's length): not a regular grid");
}

TEST_F(SegyTest, ModelWithoutCoordinatesTakesTheDepthStep) {
  {
    SegyWriter w(path("bare.segy"), 3, 4000, 2, {});
    const float samples[3] = {1500, 1600, 1700};
    for (int t = 0; t < 2; ++t)
      w.writeTrace(t, TraceHeader(), samples);
    w.commit();
  }
  const Geometry g = readSegyModelGeometry(path("bare.segy"));
  EXPECT_EQ(g.nx, 2);
  EXPECT_EQ(g.ny, 1);
  EXPECT_EQ(g.nz, 3);
  EXPECT_DOUBLE_EQ(g.dz, 4);
  EXPECT_DOUBLE_EQ(g.dx, 4);
  EXPECT_FALSE(g.lateralFromFile);
}

TEST_F(SegyTest, FailedWriteLeavesNothing) {
  const Geometry g = sampleGeometry();
  EXPECT_THROW(writeSegyModel(path("missing/m.segy"), sampleModel(g.nx, g.ny, g.nz), g),
               std::runtime_error);
  Geometry fractional = g;
  fractional.z0 = 30.5;
  EXPECT_THROW(writeSegyModel(path("m.segy"), sampleModel(g.nx, g.ny, g.nz), fractional),
               std::invalid_argument);
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(SegyTest, RunGeometryIsWrittenWhole) {
  RunGeometry run;
  run.grid = sampleGeometry();
  run.dt = 0.001;
  run.steps = 10;
  run.source[0] = 2;
  writeRunGeometry(path("geometry.json"), run);
  std::ifstream is(path("geometry.json"));
  const std::string text{std::istreambuf_iterator<char>(is), {}};
  EXPECT_NE(text.find("\"spacing\": [12.5, 25, 6.25]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"source\": [1025, -250.5, 30]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"program\": \"wave\""), std::string::npos) << text;
  EXPECT_EQ(text.find("volume_axes"), std::string::npos) << text; // only when set
  EXPECT_EQ(text.find("shots_index"), std::string::npos) << text;
  EXPECT_FALSE(fs::exists(path("geometry.json.part")));
  EXPECT_THROW(writeRunGeometry(path("missing/geometry.json"), run), std::runtime_error);
}

TEST_F(SegyTest, RunGeometryOfAnImagingRun) {
  RunGeometry run;
  run.grid = sampleGeometry();
  run.program = "rtm";
  run.receiverFirst = 2;
  run.receiverCount = 3;
  run.receiverDepth = 1;
  run.volumeAxes = "xyz";
  run.shots = {{1, 0, 1}, {3, 0, 1}};
  writeRunGeometry(path("geometry.json"), run);
  std::ifstream is(path("geometry.json"));
  const std::string text{std::istreambuf_iterator<char>(is), {}};
  EXPECT_NE(text.find("\"program\": \"rtm\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"volume_axes\": \"xyz\",\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\"shots_index\": [[1, 0, 1], [3, 0, 1]],\n"), std::string::npos) << text;
  // Receiver 0 at index (2, 0, 1): (1000 + 2 * 12.5, -250.5, 30 + 6.25) m.
  EXPECT_NE(text.find("\"count\": 3, \"index\": [2, 0, 1], \"first\": [1025, -250.5, 36.25]"),
            std::string::npos)
      << text;
}

} // namespace
