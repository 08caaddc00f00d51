//===- CudaPropagator.cu - The fd8 wave step on the device -----------------===//
#include "CudaPropagator.h"

#include "DeviceKernels.h"

#include "acoustic8_sponge_adjoint_cuda.h"
#include "acoustic8_sponge_cuda.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace rtm {

namespace forward = stencilc_kernels::acoustic8_sponge_cuda;
namespace adjoint = stencilc_kernels::acoustic8_sponge_adjoint_cuda;

namespace {

/// c2 = (vΔt/h)² per point, halo included, as wave::Propagator's fd8 builds it.
rt::Grid<float> courantSquared(const rt::Grid<float> &velocity, double h, double dt) {
  rt::Grid<float> c2(velocity.shape());
  c2.fillWith([&](int i, int j, int k) {
    const double c = velocity(i, j, k) * dt / h;
    return c * c;
  });
  return c2;
}

/// One step of kernel namespace K on the propagator's fields, in place.
template <typename Args, typename Options, typename Variant>
void runStep(void (*run)(const Args &, const Options &), Variant variant,
             cu::DeviceGrid<float> &previous, cu::DeviceGrid<float> &current,
             const cu::DeviceGrid<float> &c2, const cu::DeviceGrid<float> &damping,
             cudaStream_t stream) {
  Args a;
  a.extent = {current.nx(), current.ny(), current.nz()};
  a.u_prev = rt::readOnlyView(previous.view());
  a.u = rt::readOnlyView(current.view());
  a.u_next = previous.view(); // in place: the new level overwrites the oldest
  a.c2 = c2.view();
  a.damp = damping.view();
  Options o;
  o.variant = variant;
  o.stream = stream;
  run(a, o);
}

template <typename Variant> Variant variantOf(CudaVariant v) {
  switch (v) {
  case CudaVariant::Gmem: return Variant::Gmem;
  case CudaVariant::Ro: return Variant::Ro;
  case CudaVariant::Traditional: return Variant::Traditional;
  case CudaVariant::Planes: return Variant::Planes;
  }
  return Variant::Planes;
}

} // namespace

CudaPropagator::CudaPropagator(const rt::Grid<float> &velocity, const rt::Grid<float> &damping,
                               double h, double dt, CudaDirection direction, CudaVariant variant,
                               cudaStream_t stream)
    : levelA_(velocity.shape()), levelB_(velocity.shape()), c2_(courantSquared(velocity, h, dt)),
      damping_(damping), current_(&levelA_), previous_(&levelB_), zero_(velocity.shape()),
      direction_(direction), variant_(variant), stream_(stream) {
  if (!(velocity.shape() == damping.shape()))
    throw std::invalid_argument("velocity and damping grids differ in shape");
  if (velocity.halo() < forward::kRadius || velocity.halo() < adjoint::kRadius)
    throw std::invalid_argument("the model's halo is smaller than the stencils' radius");
  zero_.fill(0.0f);
  reset();
}

void CudaPropagator::reset() {
  levelA_.upload(zero_, stream_);
  levelB_.upload(zero_, stream_);
}

void CudaPropagator::step(const device::DevicePoints &points, const float *values) {
  if (direction_ == CudaDirection::Forward)
    runStep(&forward::run, variantOf<forward::Variant>(variant_), *previous_, *current_, c2_,
            damping_, stream_);
  else
    runStep(&adjoint::run, variantOf<adjoint::Variant>(variant_), *previous_, *current_, c2_,
            damping_, stream_);
  if (values)
    device::addAt(previous_->view(), points.offsets(), values, points.size(), stream_);
  std::swap(current_, previous_);
}

} // namespace rtm
