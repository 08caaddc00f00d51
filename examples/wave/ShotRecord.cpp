//===- ShotRecord.cpp -----------------------------------------------------===//
#include "ShotRecord.h"

#include "SegyGather.h"

namespace wave {

void writeShotRecord(const std::string &path, const rt::Image2D &seismogram,
                     const seisio::Geometry &g, double dt, int si, int sj, int sk) {
  seisio::ShotGather gather;
  gather.samples = seismogram.height;
  gather.dt = dt;
  gather.source = {g.x0 + si * g.dx, g.y0 + sj * g.dy, g.z0 + sk * g.dz};
  gather.values.resize(std::size_t(seismogram.width) * seismogram.height);
  for (int i = 0; i < seismogram.width; ++i) {
    gather.receivers.push_back({g.x0 + i * g.dx, gather.source.y, gather.source.z});
    for (int t = 0; t < seismogram.height; ++t)
      gather.at(i, t) = seismogram.at(i, t);
  }
  seisio::writeSegyGather(path, gather);
}

} // namespace wave
