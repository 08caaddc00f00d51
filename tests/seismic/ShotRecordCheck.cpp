//===- ShotRecordCheck.cpp - A wave run's SEG-Y gather against its .npy ----===//
//
//   shot-record-check DIR X0 Y0 Z0 H DT_US SI SJ SK
//
// Reads DIR/seismogram.segy (examples/seismic-io) and DIR/seismogram.npy
// (steps + 1, nx) and checks that the gather has one trace per receiver with the
// same samples, the sample interval DT_US µs, receivers at (X0 + i H, Y0 + SJ
// H, Z0 + SK H) and the source at grid point (SI, SJ, SK). Exit 0 when all hold.
//
//===----------------------------------------------------------------------===//
#include "SegyGather.h"

#include "stencilc/io/Npy.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {
int failures = 0;
void expect(bool ok, const std::string &what) {
  if (!ok) {
    std::fprintf(stderr, "shot-record-check: %s\n", what.c_str());
    ++failures;
  }
}
bool near(double a, double b) { return std::abs(a - b) <= 0.005; } // centimetres
} // namespace

int main(int argc, char **argv) {
  if (argc != 10) {
    std::fprintf(stderr, "usage: shot-record-check DIR X0 Y0 Z0 H DT_US SI SJ SK\n");
    return 2;
  }
  const std::string dir = argv[1];
  const double x0 = std::atof(argv[2]), y0 = std::atof(argv[3]), z0 = std::atof(argv[4]),
               h = std::atof(argv[5]), dt = std::atof(argv[6]) * 1e-6;
  const int si = std::atoi(argv[7]), sj = std::atoi(argv[8]), sk = std::atoi(argv[9]);
  try {
    const seisio::ShotGather g = seisio::readSegyGather(dir + "/seismogram.segy");
    const auto npy = stencilc::rt::readNpy<float>(dir + "/seismogram.npy", 0);
    expect(int(g.receivers.size()) == npy.nx() && g.samples == npy.ny(),
           "gather size differs from seismogram.npy");
    expect(std::abs(g.dt - dt) < 1e-12, "sample interval " + std::to_string(g.dt));
    expect(near(g.source.x, x0 + si * h) && near(g.source.y, y0 + sj * h) &&
               near(g.source.z, z0 + sk * h),
           "source position");
    for (int r = 0; r < int(g.receivers.size()) && failures == 0; ++r) {
      const seisio::Position &p = g.receivers[std::size_t(r)];
      expect(near(p.x, x0 + r * h) && near(p.y, y0 + sj * h) && near(p.z, z0 + sk * h),
             "receiver " + std::to_string(r) + " position");
      for (int t = 0; t < g.samples; ++t)
        if (g.at(r, t) != npy(r, t)) {
          expect(false, "receiver " + std::to_string(r) + " sample " + std::to_string(t));
          break;
        }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "shot-record-check: %s\n", e.what());
    return 1;
  }
  if (failures == 0)
    std::printf("shot-record-check: %s/seismogram.segy agrees with seismogram.npy\n", dir.c_str());
  return failures == 0 ? 0 : 1;
}
