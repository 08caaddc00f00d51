//===- Migration.cpp - Reverse-time migration of one shot -------------------===//
#include "Migration.h"

#include "AsyncSnapshotWriter.h"
#include "OffGrid.h"
#include "ShotFiles.h"
#include "SnapshotFile.h"

#include "stencilc/timeloop/Revolve.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace rtm {

const char *storageName(Storage s) {
  switch (s) {
  case Storage::Memory: return "memory";
  case Storage::Disk: return "disk";
  case Storage::Revolve: return "revolve";
  }
  return "?";
}

namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<float> interiorOf(const rt::Grid<float> &g) {
  std::vector<float> v;
  v.reserve(size_t(g.nx()) * g.ny() * g.nz());
  for (int k = 0; k < g.nz(); ++k)
    for (int j = 0; j < g.ny(); ++j)
      for (int i = 0; i < g.nx(); ++i)
        v.push_back(g(i, j, k));
  return v;
}

void setInterior(rt::Grid<float> &g, const std::vector<float> &v) {
  size_t n = 0;
  for (int k = 0; k < g.nz(); ++k)
    for (int j = 0; j < g.ny(); ++j)
      for (int i = 0; i < g.nx(); ++i)
        g(i, j, k) = v[n++];
}

/// A grid's whole storage, halo and padding included, and back.
std::vector<float> storageOf(const rt::Grid<float> &g) {
  return {g.storage(), g.storage() + g.storageElements()};
}

void setStorage(rt::Grid<float> &g, const std::vector<float> &v) {
  std::copy(v.begin(), v.end(), g.storage());
}

/// The adjoint sources of one step: each receiver's value at its point, or
/// spread over its points by its weights.
std::vector<wave::Injection> at(const Shot &shot, const std::vector<float> &values) {
  std::vector<wave::Injection> out;
  if (shot.offGrid || !shot.receiverSpread.empty()) {
    for (size_t r = 0; r < shot.receiverSpread.size(); ++r)
      for (const wave::Injection &w : shot.receiverSpread[r])
        out.push_back({w.i, w.j, w.k, w.value * double(values[r])});
    return out;
  }
  for (size_t r = 0; r < shot.receivers.size(); ++r)
    out.push_back(
        {shot.receivers[r][0], shot.receivers[r][1], shot.receivers[r][2], double(values[r])});
  return out;
}

/// The source's injection after forward step m (from 1).
std::vector<wave::Injection> sourceAt(const Shot &shot, int m) {
  const double value = shot.wavelet[size_t(m - 1)];
  if (!shot.offGrid && shot.sourceSpread.empty())
    return {{shot.source[0], shot.source[1], shot.source[2], value}};
  std::vector<wave::Injection> out;
  for (const wave::Injection &w : shot.sourceSpread)
    out.push_back({w.i, w.j, w.k, w.value * value});
  return out;
}

/// The steps of one migration: forward step m (u^m from u^{m-1}, the
/// wavelet's value m−1 added), adjoint step m (λ^m from λ^{m+1}, the data of
/// step m−1 added at the receivers), imaging at m.
class ShotRun {
public:
  ShotRun(wave::Propagator &forward, wave::Propagator &adjoint, const Shot &shot,
          const MigrationOptions &options, ImageSums &sums, StorageReport &report)
      : forward_(forward), adjoint_(adjoint), shot_(shot), options_(options), sums_(sums),
        report_(report) {
    forward_.reset();
    adjoint_.reset();
  }

  void forwardStep(int m) {
    const auto start = Clock::now();
    forward_.step(sourceAt(shot_, m), options_.run, options_.forwardStepper);
    report_.forwardSeconds += secondsSince(start);
    ++report_.forwardSteps;
    if (options_.progress)
      options_.progress->advanceBy(1);
  }

  void adjointStep(int m) {
    const auto start = Clock::now();
    adjoint_.step(at(shot_, shot_.data[size_t(m - 1)]), options_.run, options_.adjointStepper);
    report_.adjointSeconds += secondsSince(start);
    ++report_.adjointSteps;
    if (options_.progress)
      options_.progress->advanceBy(1);
  }

  bool imaged(int m) const { return m % options_.imageEvery == 0; }

  /// Adds u·∂λ/∂t and u·u at every interior point, in a fixed order. The
  /// adjoint holds λ at m (current) and m + 1 (previous): ∂λ/∂t·Δt ≈
  /// λ^m − λ^{m+1} in the backward time loop's sense.
  void image(const std::vector<float> &u) {
    const rt::Grid<float> &lambda = adjoint_.current(), &later = adjoint_.previous();
    size_t n = 0;
    for (int k = 0; k < lambda.nz(); ++k)
      for (int j = 0; j < lambda.ny(); ++j)
        for (int i = 0; i < lambda.nx(); ++i, ++n) {
          const double dLambda = double(lambda(i, j, k)) - double(later(i, j, k));
          sums_.cross[n] += double(u[n]) * dLambda;
          sums_.illumination[n] += double(u[n]) * double(u[n]);
        }
  }

  wave::Propagator &forward() { return forward_; }

private:
  wave::Propagator &forward_, &adjoint_;
  const Shot &shot_;
  const MigrationOptions &options_;
  ImageSums &sums_;
  StorageReport &report_;
};

void inMemory(ShotRun &run, const MigrationOptions &o, StorageReport &report) {
  std::map<int, std::vector<float>> kept;
  size_t bytes = 0;
  for (int m = 1; m <= o.steps; ++m) {
    run.forwardStep(m);
    if (run.imaged(m)) {
      kept[m] = interiorOf(run.forward().current());
      bytes += kept[m].size() * sizeof(float);
    }
  }
  report.peakBytes = std::max(report.peakBytes, bytes);
  for (int m = o.steps; m >= 1; --m) {
    run.adjointStep(m);
    if (run.imaged(m))
      run.image(kept.at(m));
  }
}

std::string snapshotPath(const std::string &dir, int m) {
  return fmt::format("{}/snapshot_{:06d}.bin", dir, m);
}

void onDisk(ShotRun &run, const MigrationOptions &o, StorageReport &report) {
  const rt::Grid<float> &u = run.forward().current();
  const SnapshotShape shape{u.nx(), u.ny(), u.nz()};
  ShotFiles written; // before the writer, which is done with the files when they are removed
  {
    AsyncSnapshotWriter writer(shape);
    for (int m = 1; m <= o.steps; ++m) {
      run.forwardStep(m);
      if (run.imaged(m)) {
        writer.submit(written.add(snapshotPath(o.snapshotDir, m)), m,
                      interiorOf(run.forward().current()));
      }
    }
    writer.drain();
    report.ioSeconds += writer.writeSeconds();
    report.blockedSeconds += writer.blockedSeconds();
    report.peakBytes = std::max(report.peakBytes, writer.peakPendingBytes());
    report.diskBytes =
        written.paths().size() * (kSnapshotHeaderBytes + shape.points() * sizeof(float));
  }
  std::vector<float> snapshot;
  for (int m = o.steps; m >= 1; --m) {
    run.adjointStep(m);
    if (run.imaged(m)) {
      const auto start = Clock::now();
      readSnapshotFile(snapshotPath(o.snapshotDir, m), shape, m, snapshot);
      report.readSeconds += secondsSince(start);
      run.image(snapshot);
    }
  }
  report.peakBytes = std::max(report.peakBytes, shape.points() * sizeof(float));
}

/// Revolve's checkpoint slots: two levels of u (the current one and the one
/// before) per slot, in memory or, with a checkpoint directory, in snapshot
/// files (SnapshotFile.h: their header and checksum are checked on read).
class CheckpointSlots {
public:
  CheckpointSlots(const MigrationOptions &o, const SnapshotShape &shape, StorageReport &report)
      : dir_(o.checkpointDir), shape_(shape), report_(report), held_(size_t(o.checkpoints)),
        halo_(o.checkpointHalo) {
    if (halo_ && !dir_.empty())
      throw std::logic_error("checkpoints with their halo are held in memory only");
    const size_t stateBytes = 2 * shape.points() * sizeof(float);
    if (dir_.empty())
      report.peakBytes = std::max(report.peakBytes, size_t(o.checkpoints) * stateBytes);
    else
      report.diskBytes = size_t(o.checkpoints) * 2 * (kSnapshotHeaderBytes + stateBytes / 2);
  }
  CheckpointSlots(const CheckpointSlots &) = delete;
  CheckpointSlots &operator=(const CheckpointSlots &) = delete;

  void take(int slot, int state, wave::Propagator &f) {
    if (halo_) {
      held_[size_t(slot)] = {storageOf(f.current()), storageOf(f.previous())};
      return;
    }
    if (dir_.empty()) {
      held_[size_t(slot)] = {interiorOf(f.current()), interiorOf(f.previous())};
      return;
    }
    const auto start = Clock::now();
    for (int level = 0; level < 2; ++level) {
      const std::string p = path(slot, level);
      writeSnapshotFile(p, shape_, state, interiorOf(level == 0 ? f.current() : f.previous()));
      written_.add(p);
    }
    report_.ioSeconds += secondsSince(start);
  }

  void restore(int slot, int state, wave::Propagator &f) {
    if (halo_) {
      setStorage(f.current(), held_[size_t(slot)].first);
      setStorage(f.previous(), held_[size_t(slot)].second);
      return;
    }
    if (dir_.empty()) {
      setInterior(f.current(), held_[size_t(slot)].first);
      setInterior(f.previous(), held_[size_t(slot)].second);
      return;
    }
    const auto start = Clock::now();
    for (int level = 0; level < 2; ++level) {
      readSnapshotFile(path(slot, level), shape_, state, buffer_);
      setInterior(level == 0 ? f.current() : f.previous(), buffer_);
    }
    report_.readSeconds += secondsSince(start);
  }

private:
  std::string path(int slot, int level) const {
    return fmt::format("{}/checkpoint_{:03d}_{}.bin", dir_, slot, level == 0 ? "u" : "u_prev");
  }

  std::string dir_;
  SnapshotShape shape_;
  StorageReport &report_;
  std::vector<std::pair<std::vector<float>, std::vector<float>>> held_;
  ShotFiles written_; ///< removed with the slots
  std::vector<float> buffer_;
  bool halo_;
};

void withRevolve(ShotRun &run, const MigrationOptions &o, StorageReport &report) {
  wave::Propagator &f = run.forward();
  const SnapshotShape shape{f.current().nx(), f.current().ny(), f.current().nz()};
  CheckpointSlots slots(o, shape, report);
  for (const rt::RevolveStep &a : rt::revolveSchedule(o.steps, o.checkpoints)) {
    switch (a.action) {
    case rt::RevolveAction::Takeshot: slots.take(a.slot, a.state, f); break;
    case rt::RevolveAction::Restore: slots.restore(a.slot, a.state, f); break;
    case rt::RevolveAction::Advance:
      for (int m = a.from + 1; m <= a.state; ++m)
        run.forwardStep(m);
      break;
    case rt::RevolveAction::Firsturn:
    case rt::RevolveAction::Youturn:
      run.forwardStep(a.state);
      run.adjointStep(a.state);
      if (run.imaged(a.state))
        run.image(interiorOf(f.current()));
      break;
    }
  }
}

} // namespace

std::vector<std::vector<float>> modelShot(wave::Propagator &forward, const Shot &shot, int steps,
                                          const rt::RunOptions &run, rt::Progress *progress,
                                          const AfterStep &afterStep) {
  forward.reset();
  std::vector<std::vector<float>> data(static_cast<size_t>(steps));
  for (int n = 0; n < steps; ++n) {
    forward.step(sourceAt(shot, n + 1), run);
    const rt::Grid<float> &u = forward.current();
    for (const auto &spread : shot.receiverSpread)
      data[size_t(n)].push_back(float(record(u, spread)));
    for (const Point &r : shot.receivers)
      data[size_t(n)].push_back(u(r[0], r[1], r[2]));
    if (afterStep)
      afterStep(n + 1, forward.current());
    if (progress)
      progress->advanceBy(1);
  }
  return data;
}

void migrateShot(wave::Propagator &forward, wave::Propagator &adjoint, const Shot &shot,
                 const MigrationOptions &options, ImageSums &sums, StorageReport &report) {
  const auto start = Clock::now();
  const rt::Grid<float> &g = forward.current();
  const size_t points = size_t(g.nx()) * g.ny() * g.nz();
  if (sums.cross.empty()) {
    sums.cross.assign(points, 0.0);
    sums.illumination.assign(points, 0.0);
  }
  ShotRun run(forward, adjoint, shot, options, sums, report);
  switch (options.storage) {
  case Storage::Memory: inMemory(run, options, report); break;
  case Storage::Disk: onDisk(run, options, report); break;
  case Storage::Revolve: withRevolve(run, options, report); break;
  }
  report.seconds += secondsSince(start);
}

} // namespace rtm
