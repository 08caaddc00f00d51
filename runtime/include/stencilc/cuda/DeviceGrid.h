//===- DeviceGrid.h - Grids and coefficient tables in device memory -------===//
//
// A DeviceGrid has exactly the layout of the host rt::Grid of the same shape
// (rt::GridLayout in Grid.h: padded rows, the first interior point of every row 64-byte
// aligned, the same strides and the same offset of the origin into the
// storage), so a host grid moves to the device and back with one memcpy of
// its whole storage, halo and padding included, and a kernel indexes both
// with the same offsets. A DeviceTable is the same for a CoefficientTable.
// Kernels take the views (Kernel.h), whose pointers are device pointers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/CoefficientTable.h"
#include "stencilc/Grid.h"
#include "stencilc/Kernel.h"
#include "stencilc/cuda/DeviceBuffer.h"

#include <cstddef>
#include <stdexcept>

namespace stencilc::cuda {

template <typename T> class DeviceGrid {
public:
  using value_type = T;

  DeviceGrid() = default;
  /// Uninitialised device memory (NaN bytes under the emulator).
  explicit DeviceGrid(const rt::GridShape &shape)
      : shape_(validated(shape)), layout_(rt::GridLayout::of<T>(shape)),
        storage_(layout_.elements) {}
  /// A device copy of `host`.
  explicit DeviceGrid(const rt::Grid<T> &host) : DeviceGrid(host.shape()) { upload(host); }

  const rt::GridShape &shape() const { return shape_; }
  int nx() const { return shape_.nx; }
  int ny() const { return shape_.ny; }
  int nz() const { return shape_.nz; }
  int halo() const { return shape_.halo; }
  std::ptrdiff_t lineStride() const { return layout_.line; }
  std::ptrdiff_t planeStride() const { return layout_.plane; }
  std::size_t storageElements() const { return layout_.elements; }

  /// Device pointer to interior point (0, 0, 0).
  T *origin() { return storage_.data() + layout_.originIndex; }
  const T *origin() const { return storage_.data() + layout_.originIndex; }

  rt::FieldView<T> view() { return {origin(), layout_.line, layout_.plane}; }
  rt::FieldView<const T> view() const { return {origin(), layout_.line, layout_.plane}; }

  /// Copies all of `host` (halo and padding too); with a stream, asynchronously.
  void upload(const rt::Grid<T> &host, cudaStream_t stream = nullptr) {
    requireSameShape(host);
    storage_.copyFromHost(host.storage(), layout_.elements, stream);
  }
  /// Copies all of this grid into `host`; with a stream, asynchronously.
  void download(rt::Grid<T> &host, cudaStream_t stream = nullptr) const {
    requireSameShape(host);
    storage_.copyToHost(host.storage(), layout_.elements, stream);
  }
  rt::Grid<T> toHost() const {
    rt::Grid<T> host(shape_);
    download(host);
    return host;
  }

  /// Every element, padding included, becomes NaN (floating point) or all ones.
  void poison(cudaStream_t stream = nullptr) { storage_.fillBytes(0xff, stream); }

private:
  /// The shapes rt::Grid accepts.
  static const rt::GridShape &validated(const rt::GridShape &s) {
    if ((s.dims != 2 && s.dims != 3) || s.nx < 1 || s.ny < 1 || s.nz < 1 || s.halo < 0 ||
        (s.dims == 2 && s.nz != 1))
      throw std::invalid_argument("DeviceGrid: not a valid 2D or 3D grid shape");
    return s;
  }

  void requireSameShape(const rt::Grid<T> &host) const {
    if (!(host.shape() == shape_))
      throw std::invalid_argument("DeviceGrid: host grid of another shape");
  }

  rt::GridShape shape_;
  rt::GridLayout layout_;
  DeviceBuffer<T> storage_;
};

template <typename T> rt::FieldView<T> view(DeviceGrid<T> &g) { return g.view(); }
template <typename T> rt::FieldView<const T> view(const DeviceGrid<T> &g) { return g.view(); }

/// A CoefficientTable in device memory, in the same storage order.
template <typename T> class DeviceTable {
public:
  DeviceTable() = default;
  explicit DeviceTable(const rt::CoefficientTable<T> &host)
      : rows_(host.rows()), cols_(host.cols()), rowStride_(host.rowStride()),
        colStride_(host.colStride()), storage_(host.size()) {
    storage_.copyFromHost(host.data(), host.size());
  }

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  const T *data() const { return storage_.data(); }
  rt::TableView<T> view() const { return {storage_.data(), rowStride_, colStride_, rows_, cols_}; }

private:
  int rows_ = 0, cols_ = 0;
  std::ptrdiff_t rowStride_ = 0, colStride_ = 0;
  DeviceBuffer<T> storage_;
};

template <typename T> rt::TableView<T> view(const DeviceTable<T> &t) { return t.view(); }

} // namespace stencilc::cuda
