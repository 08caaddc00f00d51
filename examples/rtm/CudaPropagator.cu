//===- CudaPropagator.cu - The wave step on the device ---------------------===//
#include "CudaPropagator.h"

#include "DeviceKernels.h"

#include "acoustic8_sponge_adjoint_cuda.h"
#include "acoustic8_sponge_cuda.h"
#include "ete37_sponge_adjoint_cuda.h"
#include "ete37_sponge_cuda.h"

#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace rtm {

namespace fd8 = stencilc_kernels::acoustic8_sponge_cuda;
namespace fd8Adjoint = stencilc_kernels::acoustic8_sponge_adjoint_cuda;
namespace ete = stencilc_kernels::ete37_sponge_cuda;
namespace eteAdjoint = stencilc_kernels::ete37_sponge_adjoint_cuda;

/// One generated kernel: its fields and tables, and a step launched with a variant on a stream.
struct CudaKernel {
  const rt::KernelInfo &(*info)();
  std::function<void(const rt::ErasedArgs &args, CudaVariant variant, cudaStream_t stream)> run;
};

namespace {

template <typename Variant> Variant variantOf(CudaVariant v) {
  switch (v) {
  case CudaVariant::Gmem: return Variant::Gmem;
  case CudaVariant::Ro: return Variant::Ro;
  case CudaVariant::Traditional: return Variant::Traditional;
  case CudaVariant::Planes: return Variant::Planes;
  }
  return Variant::Planes;
}

/// A kernel namespace's kernelInfo and runErased, the latter with that namespace's LaunchOptions.
template <typename Options>
CudaKernel kernelOf(const rt::KernelInfo &(*info)(),
                    void (*runErased)(const rt::ErasedArgs &, const Options &)) {
  return {info, [runErased](const rt::ErasedArgs &a, CudaVariant variant, cudaStream_t stream) {
            Options o;
            o.variant = variantOf<typename decltype(o.variant)::value_type>(variant);
            o.stream = stream;
            runErased(a, o);
          }};
}

rt::NamedField named(const char *name, const cu::DeviceGrid<float> &g) {
  return {name, rt::ErasedField{const_cast<float *>(g.origin()), g.lineStride(), g.planeStride()},
          sizeof(float)};
}

/// c2 = (vΔt/h)² per point, halo included, as wave::Propagator's fd8 builds it.
rt::Grid<float> courantSquared(const rt::Grid<float> &velocity, double h, double dt) {
  rt::Grid<float> c2(velocity.shape());
  c2.fillWith([&](int i, int j, int k) {
    const double c = velocity(i, j, k) * dt / h;
    return c * c;
  });
  return c2;
}

} // namespace

CudaModel::CudaModel(wave::Operator op, const rt::Grid<float> &velocity,
                     const rt::Grid<float> &damping, double h, double dt,
                     const std::string &stencilDir)
    : op_(op), shape_(velocity.shape()) {
  if (!(velocity.shape() == damping.shape()))
    throw std::invalid_argument("velocity and damping grids differ in shape");
  // The adjoints read coefficients (and ETE's shifted index views) as far out as their radius.
  const int radius = op == wave::Operator::Fd8 ? std::max(fd8::kRadius, fd8Adjoint::kRadius)
                                               : std::max(ete::kRadius, eteAdjoint::kRadius);
  if (velocity.halo() < radius)
    throw std::invalid_argument("the model's halo is smaller than the stencils' radius");
  damping_ = cu::DeviceGrid<float>(damping);
  if (op == wave::Operator::Fd8) {
    c2_ = cu::DeviceGrid<float>(courantSquared(velocity, h, dt));
    return;
  }
  const wave::EteTable table = wave::fitEteTable(velocity, h, dt, stencilDir);
  column_ = cu::DeviceGrid<std::uint16_t>(table.column);
  coefficients_ = cu::DeviceTable<float>(table.coefficients);
}

std::vector<rt::NamedField> CudaModel::fields() const {
  if (op_ == wave::Operator::Fd8)
    return {named("c2", c2_), named("damp", damping_)};
  return {{"vidx",
           rt::ErasedField{const_cast<std::uint16_t *>(column_.origin()), column_.lineStride(),
                           column_.planeStride()},
           sizeof(std::uint16_t)},
          named("damp", damping_)};
}

std::vector<rt::ErasedTable> CudaModel::tables() const {
  if (op_ == wave::Operator::Fd8)
    return {};
  return {rt::erasedTable(coefficients_.view())};
}

namespace {

const CudaKernel &kernelFor(wave::Operator op, CudaDirection direction) {
  static const CudaKernel kernels[2][2] = {
      {kernelOf(&fd8::kernelInfo, &fd8::runErased),
       kernelOf(&fd8Adjoint::kernelInfo, &fd8Adjoint::runErased)},
      {kernelOf(&ete::kernelInfo, &ete::runErased),
       kernelOf(&eteAdjoint::kernelInfo, &eteAdjoint::runErased)}};
  return kernels[op == wave::Operator::Fd8 ? 0 : 1][direction == CudaDirection::Forward ? 0 : 1];
}

} // namespace

CudaPropagator::CudaPropagator(const CudaModel &model, CudaDirection direction, CudaVariant variant,
                               cudaStream_t stream)
    : kernel_(kernelFor(model.op(), direction)), levelA_(model.shape()), levelB_(model.shape()),
      zero_(model.shape()), variant_(variant), stream_(stream) {
  // The output, the level it advances (current) and the one it overwrites
  // (previous), found by role: fd8 names them u_next, u, u_prev and ETE p_next, p_cur, p_prev.
  const rt::KernelInfo &info = kernel_.info();
  const rt::KernelFieldInfo *out = nullptr;
  for (const rt::KernelFieldInfo &f : info.fields)
    if (std::strcmp(f.role, "out") == 0)
      out = &f;
  if (!out || out->advances < 0 || out->overwrites < 0)
    throw std::logic_error(std::string(info.name) + ": not a two-level time step");
  const char *current = info.fields[size_t(out->advances)].name;
  const char *previous = info.fields[size_t(out->overwrites)].name;
  for (int swapped = 0; swapped < 2; ++swapped) {
    const cu::DeviceGrid<float> &now = swapped ? levelB_ : levelA_;
    const cu::DeviceGrid<float> &before = swapped ? levelA_ : levelB_;
    std::vector<rt::NamedField> fields = model.fields();
    fields.push_back(named(current, now));
    fields.push_back(named(previous, before));
    fields.push_back(named(out->name, before)); // in place: the new level overwrites the oldest
    args_[swapped] =
        rt::bindFields(info, {model.shape().nx, model.shape().ny, model.shape().nz}, fields);
    args_[swapped].tables = model.tables();
  }
  zero_.fill(0.0f);
  reset();
}

CudaPropagator::~CudaPropagator() = default;

void CudaPropagator::reset() {
  levelA_.upload(zero_, stream_);
  levelB_.upload(zero_, stream_);
  swapped_ = false;
}

void CudaPropagator::sweep() { kernel_.run(args_[swapped_ ? 1 : 0], variant_, stream_); }

void CudaPropagator::step(const device::DeviceStations &at, const float *values) {
  sweep();
  if (values)
    at.inject(next().view(), values, stream_);
  swapped_ = !swapped_;
}

void CudaPropagator::step(const device::DeviceStations &at, const double *values) {
  sweep();
  if (values)
    at.inject(next().view(), values, stream_);
  swapped_ = !swapped_;
}

} // namespace rtm
