//===- CudaMigration.cu - Reverse-time migration on the CUDA path ----------===//
#include "CudaMigration.h"

#include "CudaPropagator.h"
#include "DeviceKernels.h"
#include "ShotFiles.h"
#include "SnapshotFile.h"

#include "stencilc/cuda/DeviceSnapshotWriter.h"
#include "stencilc/cuda/Streams.h"
#include "stencilc/io/Npy.h"
#include "stencilc/timeloop/Revolve.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <utility>

namespace rtm {

std::optional<CudaVariant> parseCudaVariant(const std::string &name) {
  if (name == "gmem")
    return CudaVariant::Gmem;
  if (name == "ro")
    return CudaVariant::Ro;
  if (name == "traditional")
    return CudaVariant::Traditional;
  if (name == "planes")
    return CudaVariant::Planes;
  return std::nullopt;
}

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// `values` (host) in a new device array.
template <typename T> cu::DeviceBuffer<T> onDevice(const std::vector<T> &values) {
  cu::DeviceBuffer<T> buffer(values.size());
  if (!values.empty())
    buffer.copyFromHost(values.data(), values.size());
  return buffer;
}

std::string snapshotPath(const std::string &dir, int m) {
  char name[32];
  std::snprintf(name, sizeof(name), "/snapshot_%06d.npy", m);
  return dir + name;
}

rt::Extent extentOf(const cu::DeviceGrid<float> &g) { return {g.nx(), g.ny(), g.nz()}; }

/// The stations a shot injects its wavelet at: its source's spread, or its
/// grid point (Migration.h's Shot: the spreads replace the points when given
/// or when the shot is off the grid).
std::vector<std::vector<device::WeightedPoint>> sourceStations(const Shot &shot) {
  if (!shot.offGrid && shot.sourceSpread.empty())
    return {{{shot.source, 1.0}}};
  std::vector<device::WeightedPoint> spread;
  for (const wave::Injection &w : shot.sourceSpread)
    spread.push_back({{w.i, w.j, w.k}, w.value});
  return {spread};
}

/// The receivers as stations: each one's spread, or its grid point.
std::vector<std::vector<device::WeightedPoint>> receiverStations(const Shot &shot) {
  std::vector<std::vector<device::WeightedPoint>> stations;
  if (!shot.offGrid && shot.receiverSpread.empty()) {
    for (const Point &r : shot.receivers)
      stations.push_back({{r, 1.0}});
    return stations;
  }
  for (const auto &spread : shot.receiverSpread) {
    stations.emplace_back();
    for (const wave::Injection &w : spread)
      stations.back().push_back({{w.i, w.j, w.k}, w.value});
  }
  return stations;
}

/// The wavelet's first `steps` values, as the CPU path injects them (double).
std::vector<double> waveletOf(const Shot &shot, int steps) {
  if (shot.wavelet.size() < size_t(steps))
    throw std::invalid_argument("a shot's wavelet has " + std::to_string(shot.wavelet.size()) +
                                " values for " + std::to_string(steps) + " steps");
  return {shot.wavelet.begin(), shot.wavelet.begin() + steps};
}

} // namespace

struct CudaMigration::State {
  State(const rt::Grid<float> *vTrue, const rt::Grid<float> &vMigration,
        const rt::Grid<float> &damping, const CudaSetup &setup)
      : migration(setup.op, vMigration, damping, setup.h, setup.dt, setup.stencilDir),
        inMigration(migration, CudaDirection::Forward, setup.variant, compute),
        adjoint(migration, CudaDirection::Adjoint, setup.variant, compute) {
    if (vTrue) {
      trueModel = std::make_unique<CudaModel>(setup.op, *vTrue, damping, setup.h, setup.dt,
                                              setup.stencilDir);
      inTrue = std::make_unique<CudaPropagator>(*trueModel, CudaDirection::Forward, setup.variant,
                                                compute);
    }
  }

  cu::Stream compute; ///< every step, injection and imaging; snapshots copy on their own
  CudaModel migration;
  CudaPropagator inMigration, adjoint;
  std::unique_ptr<CudaModel> trueModel; ///< the built-in demonstration's
  std::unique_ptr<CudaPropagator> inTrue;
};

CudaMigration::CudaMigration(const rt::Grid<float> *trueVelocity,
                             const rt::Grid<float> &migrationVelocity,
                             const rt::Grid<float> &damping, const CudaSetup &setup) {
  if (trueVelocity && !(trueVelocity->shape() == migrationVelocity.shape()))
    throw std::invalid_argument("the true and the migration model differ in shape");
  state_ = std::make_unique<State>(trueVelocity, migrationVelocity, damping, setup);
}

CudaMigration::~CudaMigration() = default;

bool CudaMigration::emulated() {
#if defined(__CUDACC__)
  return false;
#else
  return true; // stencilc/cuda/Cuda.h under a host compiler: the CPU emulator
#endif
}

std::string CudaMigration::deviceName() {
  int device = 0;
  STENCILC_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  STENCILC_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

int CudaMigration::useDeviceOfRank(int rank) {
  int count = 0;
  STENCILC_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 1)
    throw std::runtime_error("no CUDA device");
  const int device = rank % count;
  STENCILC_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

std::vector<std::vector<float>> CudaMigration::modelShot(Model model, const Shot &shot, int steps,
                                                         int every, const AfterStep &afterStep) {
  if (model == Model::True && !state_->inTrue)
    throw std::logic_error("CudaMigration::modelShot: no true model on the device");
  if (afterStep && every < 1)
    throw std::invalid_argument("CudaMigration::modelShot: a callback every " +
                                std::to_string(every) + " steps");
  CudaPropagator &f = model == Model::True ? *state_->inTrue : state_->inMigration;
  const rt::GridShape &shape = state_->migration.shape();
  const device::DeviceStations source(sourceStations(shot), shape),
      receivers(receiverStations(shot), shape);
  const cu::DeviceBuffer<double> wavelet = onDevice(waveletOf(shot, steps));
  const size_t count = size_t(receivers.size());
  cu::DeviceBuffer<float> recorded(size_t(steps) * count);
  std::optional<rt::Grid<float>> host; // u on the host for afterStep
  if (afterStep) {
    host.emplace(shape);
    host->fill(0.0f);
  }
  f.reset();
  for (int n = 0; n < steps; ++n) {
    f.step(source, wavelet.data() + n);
    receivers.record(rt::readOnlyView(f.current().view()), recorded.data() + size_t(n) * count,
                     f.stream());
    if (afterStep && (n + 1) % every == 0) {
      f.current().download(*host, f.stream());
      STENCILC_CUDA_CHECK(cudaStreamSynchronize(f.stream()));
      afterStep(n + 1, *host);
    }
  }
  std::vector<float> flat(size_t(steps) * count);
  if (!flat.empty())
    recorded.copyToHost(flat.data(), flat.size(), f.stream());
  state_->compute.synchronize();
  std::vector<std::vector<float>> data(static_cast<size_t>(steps));
  for (int n = 0; n < steps; ++n)
    data[size_t(n)].assign(flat.begin() + std::ptrdiff_t(size_t(n) * count),
                           flat.begin() + std::ptrdiff_t(size_t(n + 1) * count));
  return data;
}

namespace {

/// The steps of one migration on the device, as ShotRun in Migration.cpp:
/// forward step m (u^m, the wavelet's value m−1 added), adjoint step m (λ^m,
/// the data of step m−1 added at the receivers), imaging at m. Each step is
/// waited for, so that its time is its own.
class DeviceShotRun {
public:
  DeviceShotRun(CudaPropagator &forward, CudaPropagator &adjoint, const rt::GridShape &shape,
                const Shot &shot, const MigrationOptions &options, cudaStream_t stream,
                StorageReport &report)
      : forward_(forward), adjoint_(adjoint), options_(options), stream_(stream), report_(report),
        shape_(shape), source_(sourceStations(shot), shape_),
        receivers_(receiverStations(shot), shape_) {
    std::vector<float> data;
    for (int m = 0; m < options.steps; ++m) {
      const std::vector<float> &row = shot.data.at(size_t(m));
      if (row.size() != size_t(receivers_.size()))
        throw std::invalid_argument("a shot's data row does not match its receivers");
      data.insert(data.end(), row.begin(), row.end());
    }
    wavelet_ = onDevice(waveletOf(shot, options.steps));
    data_ = onDevice(data);
    const size_t points = size_t(shape_.nx) * size_t(shape_.ny) * size_t(shape_.nz);
    cross_ = cu::DeviceBuffer<double>(points);
    illumination_ = cu::DeviceBuffer<double>(points);
    forward_.reset();
    adjoint_.reset();
  }

  /// The sums so far onto the device, to go on in the CPU path's order.
  void upload(const ImageSums &sums) {
    cross_.copyFromHost(sums.cross.data(), sums.cross.size(), stream_);
    illumination_.copyFromHost(sums.illumination.data(), sums.illumination.size(), stream_);
  }
  void download(ImageSums &sums) {
    cross_.copyToHost(sums.cross.data(), sums.cross.size(), stream_);
    illumination_.copyToHost(sums.illumination.data(), sums.illumination.size(), stream_);
    STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_));
  }

  void forwardStep(int m) {
    const auto start = Clock::now();
    forward_.step(source_, wavelet_.data() + (m - 1));
    STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_));
    report_.forwardSeconds += secondsSince(start);
    ++report_.forwardSteps;
  }

  void adjointStep(int m) {
    const auto start = Clock::now();
    adjoint_.step(receivers_, data_.data() + size_t(m - 1) * size_t(receivers_.size()));
    STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_));
    report_.adjointSeconds += secondsSince(start);
    ++report_.adjointSteps;
  }

  bool imaged(int m) const { return m % options_.imageEvery == 0; }

  void image(const cu::DeviceGrid<float> &u) {
    device::image(u.view(), rt::readOnlyView(adjoint_.current().view()),
                  rt::readOnlyView(adjoint_.previous().view()), extentOf(u), cross_.data(),
                  illumination_.data(), stream_);
  }

  CudaPropagator &forward() { return forward_; }
  cudaStream_t stream() const { return stream_; }
  const rt::GridShape &shape() const { return shape_; }

private:
  CudaPropagator &forward_, &adjoint_;
  const MigrationOptions &options_;
  cudaStream_t stream_;
  StorageReport &report_;
  rt::GridShape shape_;
  device::DeviceStations source_, receivers_;
  cu::DeviceBuffer<double> wavelet_;
  cu::DeviceBuffer<float> data_; ///< step-major, a row of receivers each
  cu::DeviceBuffer<double> cross_, illumination_;
};

size_t gridBytes(const rt::GridShape &shape) {
  return rt::GridLayout::of<float>(shape).elements * sizeof(float);
}

void inMemory(DeviceShotRun &run, const MigrationOptions &o, StorageReport &report) {
  std::map<int, cu::DeviceGrid<float>> kept;
  for (int m = 1; m <= o.steps; ++m) {
    run.forwardStep(m);
    if (run.imaged(m)) {
      cu::DeviceGrid<float> &copy =
          kept.emplace(m, cu::DeviceGrid<float>(run.shape())).first->second;
      device::copyInterior(rt::readOnlyView(run.forward().current().view()), copy.view(),
                           extentOf(copy), run.stream());
    }
  }
  report.peakBytes = std::max(report.peakBytes, kept.size() * gridBytes(run.shape()));
  for (int m = o.steps; m >= 1; --m) {
    run.adjointStep(m);
    if (run.imaged(m))
      run.image(kept.at(m));
  }
}

void onDisk(DeviceShotRun &run, const MigrationOptions &o, StorageReport &report) {
  constexpr int kHostBuffers = 2;
  ShotFiles written; // before the writer, which is done with the files when they are removed
  {
    cu::DeviceSnapshotWriter<float> writer(run.shape(), kHostBuffers);
    for (int m = 1; m <= o.steps; ++m) {
      // The step overwrites the oldest level: not before its copy is done.
      writer.protect(run.forward().next(), run.stream());
      run.forwardStep(m);
      if (run.imaged(m)) {
        const std::string &path = written.add(snapshotPath(o.snapshotDir, m));
        const auto start = Clock::now();
        writer.write(run.forward().current(), path, run.stream());
        report.blockedSeconds += secondsSince(start);
      }
    }
    const auto start = Clock::now();
    writer.finish();
    report.blockedSeconds += secondsSince(start);
    report.ioSeconds += writer.writeSeconds();
  }
  report.diskBytes = 0;
  for (const std::string &p : written.paths())
    report.diskBytes += size_t(std::filesystem::file_size(p));
  rt::Grid<float> host(run.shape());
  host.fill(0.0f);
  cu::DeviceGrid<float> snapshot(run.shape());
  for (int m = o.steps; m >= 1; --m) {
    run.adjointStep(m);
    if (run.imaged(m)) {
      const auto start = Clock::now();
      rt::readNpyInto(host, snapshotPath(o.snapshotDir, m));
      snapshot.upload(host, run.stream());
      report.readSeconds += secondsSince(start);
      run.image(snapshot);
    }
  }
  // The writer's pinned host grids, and the grid read back into.
  report.peakBytes = std::max(report.peakBytes, (kHostBuffers + 1) * gridBytes(run.shape()));
}

/// Revolve's checkpoints in files (--checkpoint-dir), as the CPU path's
/// CheckpointSlots writes them (SnapshotFile.h: a file per slot and level,
/// header and checksum checked on read, removed with the shot): each level's
/// interior downloaded to the host and written; read, checked and uploaded
/// on restore.
class CheckpointFiles {
public:
  CheckpointFiles(const std::string &dir, const rt::GridShape &shape, cudaStream_t stream,
                  StorageReport &report)
      : dir_(dir), shape_{shape.nx, shape.ny, shape.nz}, stream_(stream), report_(report),
        host_(shape), scratch_(shape) {
    host_.fill(0.0f);
  }

  void take(int slot, int state, const cu::DeviceGrid<float> &level, int which) {
    const auto start = Clock::now();
    level.download(host_, stream_);
    STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_));
    values_.clear();
    values_.reserve(shape_.points());
    for (int k = 0; k < shape_.nz; ++k)
      for (int j = 0; j < shape_.ny; ++j)
        for (int i = 0; i < shape_.nx; ++i)
          values_.push_back(host_(i, j, k));
    const std::string p = path(slot, which);
    writeSnapshotFile(p, shape_, state, values_);
    written_.add(p);
    report_.ioSeconds += secondsSince(start);
  }

  void restore(int slot, int state, cu::DeviceGrid<float> &level, int which) {
    const auto start = Clock::now();
    readSnapshotFile(path(slot, which), shape_, state, values_);
    size_t n = 0;
    for (int k = 0; k < shape_.nz; ++k)
      for (int j = 0; j < shape_.ny; ++j)
        for (int i = 0; i < shape_.nx; ++i)
          host_(i, j, k) = values_[n++];
    // Through a device grid of its own and its interior alone, as the
    // in-memory slots restore: the level's halo stays as the steps left it.
    scratch_.upload(host_, stream_);
    device::copyInterior(rt::readOnlyView(scratch_.view()), level.view(),
                         {shape_.nx, shape_.ny, shape_.nz}, stream_);
    STENCILC_CUDA_CHECK(cudaStreamSynchronize(stream_));
    report_.readSeconds += secondsSince(start);
  }

private:
  std::string path(int slot, int which) const {
    char name[48];
    std::snprintf(name, sizeof(name), "/checkpoint_%03d_%s.bin", slot, which == 0 ? "u" : "u_prev");
    return dir_ + name;
  }

  std::string dir_;
  SnapshotShape shape_;
  cudaStream_t stream_;
  StorageReport &report_;
  rt::Grid<float> host_; ///< a level's way to and from its file (halo zero)
  cu::DeviceGrid<float> scratch_;
  std::vector<float> values_;
  ShotFiles written_; ///< removed with the shot, also on an error
};

void withRevolve(DeviceShotRun &run, const MigrationOptions &o, StorageReport &report) {
  CudaPropagator &f = run.forward();
  const bool inFiles = !o.checkpointDir.empty();
  // A state is u at two levels: the current one and the one before.
  std::vector<std::pair<cu::DeviceGrid<float>, cu::DeviceGrid<float>>> slots;
  std::unique_ptr<CheckpointFiles> files;
  if (inFiles) {
    files = std::make_unique<CheckpointFiles>(o.checkpointDir, run.shape(), run.stream(), report);
    const size_t points = size_t(run.shape().nx) * size_t(run.shape().ny) * size_t(run.shape().nz);
    report.diskBytes = size_t(o.checkpoints) * 2 * (kSnapshotHeaderBytes + points * sizeof(float));
    report.peakBytes = std::max(report.peakBytes, gridBytes(run.shape()));
  } else {
    for (int s = 0; s < o.checkpoints; ++s)
      slots.emplace_back(cu::DeviceGrid<float>(run.shape()), cu::DeviceGrid<float>(run.shape()));
    report.peakBytes =
        std::max(report.peakBytes, size_t(o.checkpoints) * 2 * gridBytes(run.shape()));
  }
  const rt::Extent extent{run.shape().nx, run.shape().ny, run.shape().nz};
  auto copy = [&](const cu::DeviceGrid<float> &from, cu::DeviceGrid<float> &to) {
    device::copyInterior(from.view(), to.view(), extent, run.stream());
  };
  for (const rt::RevolveStep &a : rt::revolveSchedule(o.steps, o.checkpoints)) {
    switch (a.action) {
    case rt::RevolveAction::Takeshot:
      if (inFiles) {
        files->take(a.slot, a.state, f.current(), 0);
        files->take(a.slot, a.state, f.previous(), 1);
        break;
      }
      copy(f.current(), slots[size_t(a.slot)].first);
      copy(f.previous(), slots[size_t(a.slot)].second);
      break;
    case rt::RevolveAction::Restore:
      if (inFiles) {
        files->restore(a.slot, a.state, f.current(), 0);
        files->restore(a.slot, a.state, f.previous(), 1);
        break;
      }
      copy(slots[size_t(a.slot)].first, f.current());
      copy(slots[size_t(a.slot)].second, f.previous());
      break;
    case rt::RevolveAction::Advance:
      for (int m = a.from + 1; m <= a.state; ++m)
        run.forwardStep(m);
      break;
    case rt::RevolveAction::Firsturn:
    case rt::RevolveAction::Youturn:
      run.forwardStep(a.state);
      run.adjointStep(a.state);
      if (run.imaged(a.state))
        run.image(f.current());
      break;
    }
  }
}

} // namespace

void CudaMigration::migrateShot(const Shot &shot, const MigrationOptions &options, ImageSums &sums,
                                StorageReport &report) {
  const auto start = Clock::now();
  const rt::GridShape &shape = state_->migration.shape();
  const size_t points = size_t(shape.nx) * size_t(shape.ny) * size_t(shape.nz);
  if (sums.cross.empty()) {
    sums.cross.assign(points, 0.0);
    sums.illumination.assign(points, 0.0);
  }
  DeviceShotRun run(state_->inMigration, state_->adjoint, shape, shot, options, state_->compute,
                    report);
  run.upload(sums);
  switch (options.storage) {
  case Storage::Memory: inMemory(run, options, report); break;
  case Storage::Disk: onDisk(run, options, report); break;
  case Storage::Revolve: withRevolve(run, options, report); break;
  }
  run.download(sums);
  report.seconds += secondsSince(start);
}

} // namespace rtm
