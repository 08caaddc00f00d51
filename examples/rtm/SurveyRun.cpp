//===- SurveyRun.cpp - Migrating the user's own survey ---------------------===//
#include "SurveyRun.h"

#include "OffGrid.h"
#include "RunMemory.h"
#include "ShotGroups.h"
#include "Survey.h"
#include "Wavelet.h"

#include "Distribution.h"
#include "Model.h"
#include "RunChecks.h"
#include "RunGeometry.h"
#include "SegyModel.h"

#include "stencilc/io/Npy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace rtm {

namespace fs = std::filesystem;

namespace {

/// Every output file is written under a staging directory in `out` and
/// renamed into place only when all are written; on an error the staging
/// directory goes, with whatever it held.
class StagedOutput {
public:
  explicit StagedOutput(const std::string &out) : out_(out), stage_(out + "/.rtm-staging") {
    fs::create_directories(stage_);
  }
  StagedOutput(const StagedOutput &) = delete;
  StagedOutput &operator=(const StagedOutput &) = delete;
  ~StagedOutput() {
    std::error_code ignored;
    fs::remove_all(stage_, ignored);
  }
  std::string path(const std::string &name) {
    names_.push_back(name);
    return stage_ + "/" + name;
  }
  void commit() {
    for (const std::string &name : names_)
      fs::rename(stage_ + "/" + name, out_ + "/" + name);
  }

private:
  std::string out_, stage_;
  std::vector<std::string> names_;
};

bool whole(double v, double unit) { return std::abs(v / unit - std::round(v / unit)) < 1e-9; }

} // namespace

void runSurvey(const SurveyOptions &o) {
  if (!(o.frequency > 0))
    throw std::invalid_argument(fmt::format("--frequency {}: must be positive", o.frequency));
  if (o.shots.empty())
    throw std::invalid_argument("--shots: give one or more SEG-Y files, separated by commas");
  if (o.time && !(*o.time > 0))
    throw std::invalid_argument(fmt::format("--time {}: must be positive", *o.time));
  if (o.sponge < 0 || o.spongeY < 0)
    throw std::invalid_argument(
        fmt::format("--sponge {} and --sponge-y {}: must not be negative", o.sponge, o.spongeY));
  if (o.imageEvery < 1)
    throw std::invalid_argument("--image-every must be at least 1");
  checkRanksPerShot(o.ranksPerShot);

  // The inputs, all read and checked before anything is computed or written.
  const SurveyModel model = readSurveyModel(o.model, o.h, o.hGiven, o.origin);
  const seisio::Geometry &g = model.geometry;
  // image.segy keeps z0 in whole metres and dz in whole millimetres (SegyModel.h).
  if (!whole(g.z0, 1) || !whole(g.dz, 1e-3))
    throw std::invalid_argument(fmt::format(
        "{}: origin z {:g} m and spacing {:g} m: image.segy holds a depth origin in whole "
        "metres and a spacing in whole millimetres",
        o.model, g.z0, g.dz));
  const std::vector<RecordedShot> recorded = readShots(o.shots);
  if (recorded.empty())
    throw std::runtime_error(fmt::format("--shots: no traces in {}", o.shots.front()));
  for (const RecordedShot &s : recorded)
    checkInsideModel(s, g);

  const double h = g.dx;
  const rt::Grid<float> velocity = smoothVelocity(model.velocity, o.smoothing);
  double vmax = 0, vmin = INFINITY;
  velocity.forEachInteriorPoint([&](int i, int j, int k) {
    vmax = std::max(vmax, double(velocity(i, j, k)));
    vmin = std::min(vmin, double(velocity(i, j, k)));
  });
  const double dt = o.courant * h / vmax;
  std::optional<RecordedWavelet> fileWavelet;
  if (!o.wavelet.empty())
    fileWavelet = readWavelet(o.wavelet);
  if (!o.allowUndersampled) {
    if (fileWavelet)
      checkWaveletBand(*fileWavelet, vmin, h, o.op);
    else
      wave::checkFrequency(o.frequency, vmin, h, o.op);
  }
  if (o.op == wave::Operator::Fd8) {
    const double limit = wave::fdCourantLimit(o.stencilDir);
    if (o.courant > limit)
      throw std::invalid_argument(fmt::format(
          "--courant {} is unstable for the fd8 operator: its leapfrog step is stable up to "
          "Courant {:.4f}",
          o.courant, limit));
  }
  double recording = 0;
  for (const RecordedShot &s : recorded)
    recording = std::max(recording, s.delay + (s.samples - 1) * s.dt);
  const double duration = o.time ? *o.time : recording;
  const int steps = int(std::floor(duration / dt + 1e-9));
  if (steps < o.imageEvery)
    throw std::invalid_argument(
        fmt::format("{:g} s is {} steps of {:g} s, fewer than --image-every {}: nothing would "
                    "be imaged",
                    duration, steps, dt, o.imageEvery));

  // The padded grid: the sponge's width outside the model on every face.
  const int px = o.sponge, py = o.spongeY, pz = o.sponge;
  const int NX = g.nx + 2 * px, NY = g.ny + 2 * py, NZ = g.nz + 2 * pz;
  rt::Grid<float> padded = rt::Grid<float>::make3d(NX, NY, NZ, wave::kHalo);
  padded.forEachPointWithHalo([&](int i, int j, int k) {
    padded(i, j, k) = velocity(std::clamp(i - px, 0, g.nx - 1), std::clamp(j - py, 0, g.ny - 1),
                               std::clamp(k - pz, 0, g.nz - 1));
  });
  const rt::Grid<float> damping = wave::spongeDamping(rt::GridShape{3, NX, NY, NZ, wave::kHalo},
                                                      {px, py, pz, pz}, o.spongeAlpha);
  // Where a position in metres lies on the padded grid.
  auto spread = [&](const seisio::Position &p) {
    return trilinear((p.x - g.x0) / g.dx + px, (p.y - g.y0) / g.dy + py, (p.z - g.z0) / g.dz + pz,
                     NX, NY, NZ);
  };

  if (wave::ProcessGroup::rank() == 0)
    fmt::print("rtm: {} ({}), {} shots from {} files; {} operator, {}x{}x{} points with the "
               "sponge, dt = {:.6f} s (Courant {}), {} steps = {:.3f} s, source: {}\n",
               o.model, g.describe(), recorded.size(), o.shots.size(), wave::operatorName(o.op), NX,
               NY, NZ, dt, o.courant, steps, steps * dt,
               fileWavelet ? "the wavelet of " + o.wavelet
                           : fmt::format("a {:g} Hz Ricker wavelet", o.frequency));
  std::fflush(stdout);

  const int rank = wave::ProcessGroup::rank(), ranks = wave::ProcessGroup::size();
  if (ranks > 1 && (o.storage == Storage::Disk || !o.checkpointDir.empty()))
    throw std::invalid_argument(fmt::format(
        "--storage {}{}: over {} ranks every rank would write the same files; use memory or "
        "revolve with its checkpoints in memory",
        storageName(o.storage), o.checkpointDir.empty() ? "" : " --checkpoint-dir", ranks));
  // Which rank migrates which shot, and over how many ranks (ShotGroups.h);
  // refuses a split of the grid into boxes thinner than the stencil's reach.
  const ShotGroups groups(o.ranksPerShot, NX, NY, NZ, o.op);
  if (rank == 0 && ranks > 1)
    fmt::print("rtm: {}\n", groups.describe());
  // What the run holds, against what this machine has (a failing check on
  // any rank stops every rank).
  MigrationFootprint footprint;
  footprint.shape = padded.shape();
  footprint.op = o.op;
  footprint.storage = o.storage;
  footprint.steps = steps;
  footprint.imageEvery = o.imageEvery;
  footprint.checkpoints = o.checkpoints;
  footprint.checkpointsOnDisk = !o.checkpointDir.empty();
  footprint.parts = o.ranksPerShot;
  footprint.modelGrids = 4; // the model as read, smoothed, padded, and the sponge
  wave::onEveryProcess([&] {
    checkFootprint(footprint, o.storage == Storage::Disk ? o.snapshotDir : o.checkpointDir);
  });

  // Checked before the run: where the files go (created empty if need be).
  // Rank 0 alone tries; its failure stops every rank, which would otherwise
  // wait for it in the run's collectives.
  wave::onEveryProcess([&] {
    if (rank != 0 || o.out.empty())
      return;
    StagedOutput probe(o.out);
    std::FILE *f = std::fopen(probe.path("probe").c_str(), "w");
    if (!f)
      throw std::runtime_error(fmt::format("--out {}: cannot write there", o.out));
    std::fclose(f);
  });

  // The shots' migration on the device (o.device), else by the CPU propagators.
  const ShotMigrator onDevice = o.device ? o.device(padded, damping, h, dt) : ShotMigrator{};
  std::unique_ptr<wave::Propagator> forward, adjoint;
  if (!onDevice) {
    forward =
        groups.propagator(o.op, wave::Direction::Forward, padded, damping, h, dt, o.stencilDir);
    adjoint =
        groups.propagator(o.op, wave::Direction::Adjoint, padded, damping, h, dt, o.stencilDir);
  }
  StorageReport report;
  report.storage = o.storage;
  const double t0 = 1.2 / o.frequency;
  std::vector<double> wavelet;
  if (fileWavelet)
    wavelet = waveletAtSteps(*fileWavelet, dt, steps);
  else
    for (int m = 0; m < steps; ++m)
      wavelet.push_back(wave::ricker(m * dt, o.frequency, t0));
  // Shot n is migrated by group n mod G into sums of its own; the stack
  // adds them in shot order (ShotGroups::stack), so the image is the same bit
  // for bit on any number of ranks and any grouping.
  std::vector<ImageSums> mine;
  auto migrateMine = [&] {
    for (size_t n = size_t(groups.group()); n < recorded.size(); n += size_t(groups.groups())) {
      const RecordedShot &r = recorded[n];
      Shot shot;
      // The source's δ, 1/h³ at a grid point, spread over the cell's corners;
      // each corner's value scaled by Δt² v² there (docs/SEISMIC.md §Conventions).
      for (wave::Injection w : spread(r.source)) {
        const double v = padded(w.i, w.j, w.k);
        w.value *= dt * dt * v * v / (h * h * h);
        shot.sourceSpread.push_back(w);
      }
      // The points of this rank's part of the grid (all of them on one rank).
      shot.sourceSpread = groups.here(shot.sourceSpread);
      shot.offGrid = true;
      shot.wavelet = wavelet;
      shot.data.assign(size_t(steps), std::vector<float>(r.receivers.size()));
      for (size_t q = 0; q < r.receivers.size(); ++q) {
        shot.receiverSpread.push_back(groups.here(spread(r.receivers[q])));
        const std::vector<float> trace =
            resampleTrace(&r.values[q * size_t(r.samples)], r.samples, r.dt, r.delay, dt, steps);
        for (int m = 0; m < steps; ++m)
          shot.data[size_t(m)][q] = trace[size_t(m)];
      }
      MigrationOptions mo;
      mo.storage = o.storage;
      mo.steps = steps;
      mo.imageEvery = o.imageEvery;
      mo.checkpoints = o.checkpoints;
      mo.snapshotDir = o.snapshotDir;
      mo.checkpointDir = o.checkpointDir;
      mo.run = o.run;
      mo.forwardStepper = groups.stepper(wave::Direction::Forward);
      mo.adjointStepper = groups.stepper(wave::Direction::Adjoint);
      mo.checkpointHalo = groups.split();
      ImageSums part;
      if (onDevice)
        onDevice(shot, mo, part, report);
      else
        migrateShot(*forward, *adjoint, shot, mo, part, report);
      mine.push_back(groups.gather(std::move(part)));
      if (groups.leader())
        fmt::print("rtm: shot {}/{} ({} shot {}, source at ({:g}, {:g}, {:g}) m, {} receivers) "
                   "migrated\n",
                   n + 1, recorded.size(), r.file, r.number, r.source.x, r.source.y, r.source.z,
                   r.receivers.size());
      std::fflush(stdout);
    }
  };
  // A shot that fails on one rank stops every rank, with its message.
  wave::onEveryProcess(migrateMine);
  const size_t points = size_t(NX) * NY * NZ;
  const ImageSums sums = groups.stack(mine, recorded.size(), points);
  if (rank != 0)
    return;

  // The image over the padded grid (its filter sees the padding as neighbours), then the model's
  // part.
  const rt::Grid<float> full = finishImage(sums, NX, NY, NZ, o.image);
  rt::Grid<float> image = rt::Grid<float>::make3d(g.nx, g.ny, g.nz, 0);
  rt::Grid<float> illumination = rt::Grid<float>::make3d(g.nx, g.ny, g.nz, 0);
  image.forEachInteriorPoint([&](int i, int j, int k) {
    image(i, j, k) = full(i + px, j + py, k + pz);
    const size_t at = (size_t(k + pz) * NY + size_t(j + py)) * NX + size_t(i + px);
    illumination(i, j, k) = float(sums.illumination[at]);
  });
  double largest = 0;
  image.forEachInteriorPoint(
      [&](int i, int j, int k) { largest = std::max(largest, double(std::abs(image(i, j, k)))); });

  // What scripts/plot.py draws the survey's figures from: the geometry, the
  // shots' positions in metres, the x-z slice through the first source.
  seisio::RunGeometry geometry;
  geometry.grid = g;
  geometry.program = "rtm-survey";
  geometry.dt = dt;
  geometry.steps = steps;
  const seisio::Position &first = recorded.front().source;
  const int sliceY = std::clamp(int(std::lround((first.y - g.y0) / g.dy)), 0, g.ny - 1);
  geometry.source[0] = std::clamp(int(std::lround((first.x - g.x0) / g.dx)), 0, g.nx - 1);
  geometry.source[1] = sliceY;
  geometry.source[2] = std::clamp(int(std::lround((first.z - g.z0) / g.dz)), 0, g.nz - 1);
  geometry.sliceY = sliceY;
  geometry.receiverCount = 0;
  std::set<std::array<double, 3>> receivers;
  for (const RecordedShot &r : recorded) {
    geometry.sourcePositions.push_back({r.source.x, r.source.y, r.source.z});
    for (const seisio::Position &p : r.receivers)
      receivers.insert({p.x, p.y, p.z});
  }
  geometry.receiverPositions.assign(receivers.begin(), receivers.end());
  geometry.receiverCount = int(receivers.size());

  StagedOutput files(o.out);
  rt::writeNpy(image, files.path("image.npy"));
  seisio::writeSegyModel(files.path("image.segy"), image, g);
  rt::writeNpy(illumination, files.path("illumination.npy"));
  rt::writeNpy(velocity, files.path("migration_model.npy"));
  seisio::writeRunGeometry(files.path("geometry.json"), geometry);
  files.commit();
  fmt::print("largest |image| {:.3e}\nwrote {}/image.npy, image.segy and illumination.npy: "
             "(nz, ny, nx) = ({}, {}, {}), the model's geometry; migration_model.npy and "
             "geometry.json for scripts/plot.py\n",
             largest, o.out, g.nz, g.ny, g.nx);
}

} // namespace rtm
