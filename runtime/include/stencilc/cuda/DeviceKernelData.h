//===- DeviceKernelData.h - Device copies of a KernelData, for any kernel --===//
//
// Tests and benchmarks drive generated CUDA kernels they know only through
// rt::KernelInfo, as they drive CPU kernels (KernelData.h). A
// DeviceKernelData mirrors a host rt::KernelData on the device: one device
// grid per host grid (fields that share storage in place share it on the
// device too), one device table per table, and ErasedArgs whose pointers are
// device pointers. After the host data rotates its time levels, remap()
// makes each field name the device copy of the grid it names on the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "stencilc/KernelData.h"
#include "stencilc/cuda/DeviceGrid.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace stencilc::cuda {

using AnyDeviceGrid = std::variant<DeviceGrid<float>, DeviceGrid<double>, DeviceGrid<std::uint8_t>,
                                   DeviceGrid<std::uint16_t>, DeviceGrid<std::int32_t>>;

class DeviceKernelData {
public:
  /// Device copies of every grid and table of `host`, with their values.
  explicit DeviceKernelData(rt::KernelData &host) : host_(&host) {
    const rt::KernelInfo &info = host.info();
    for (std::size_t f = 0; f < info.fields.size(); ++f) {
      rt::AnyGrid *grid = &host.field(int(f));
      if (copies_.count(grid))
        continue;
      copies_[grid] = std::make_unique<AnyDeviceGrid>(std::visit(
          [](auto &g) -> AnyDeviceGrid {
            using T = typename std::decay_t<decltype(g)>::value_type;
            return DeviceGrid<T>(g);
          },
          *grid));
    }
    for (std::size_t t = 0; t < info.tables.size(); ++t) {
      if (std::string(info.elemType) == "float")
        floatTables_.emplace_back(host.table<float>(int(t)));
      else
        doubleTables_.emplace_back(host.table<double>(int(t)));
    }
    remap();
  }

  /// Field f names the device copy of the grid host.field(f) names now.
  void remap() {
    fields_.clear();
    for (std::size_t f = 0; f < host_->info().fields.size(); ++f)
      fields_.push_back(copies_.at(&host_->field(int(f))).get());
  }

  AnyDeviceGrid &field(int f) { return *fields_[f]; }
  template <typename T> DeviceGrid<T> &field(int f) { return std::get<DeviceGrid<T>>(field(f)); }

  /// The arguments of one step, with device pointers.
  rt::ErasedArgs args() {
    rt::ErasedArgs a;
    const rt::GridShape &shape =
        std::visit([](auto &g) -> const rt::GridShape & { return g.shape(); }, *fields_.front());
    a.extent = {shape.nx, shape.ny, shape.nz};
    for (AnyDeviceGrid *grid : fields_)
      std::visit(
          [&](auto &g) {
            a.fields.push_back({static_cast<void *>(g.origin()), g.lineStride(), g.planeStride()});
          },
          *grid);
    for (const auto &t : floatTables_)
      a.tables.push_back(rt::erasedTable(t.view()));
    for (const auto &t : doubleTables_)
      a.tables.push_back(rt::erasedTable(t.view()));
    a.scalars = host_->scalars();
    return a;
  }

  /// The host grid field f names copied into device field f (e.g. after poisoning it).
  void upload(int f) {
    std::visit(
        [&](auto &g) {
          using T = typename std::decay_t<decltype(g)>::value_type;
          g.upload(host_->field<T>(f));
        },
        field(f));
  }

  /// Device field f copied into the host grid field f names.
  void download(int f) {
    std::visit(
        [&](auto &g) {
          using T = typename std::decay_t<decltype(g)>::value_type;
          g.download(host_->field<T>(f));
        },
        field(f));
  }

private:
  rt::KernelData *host_;
  std::map<const rt::AnyGrid *, std::unique_ptr<AnyDeviceGrid>> copies_;
  std::vector<AnyDeviceGrid *> fields_;
  std::vector<DeviceTable<float>> floatTables_;
  std::vector<DeviceTable<double>> doubleTables_;
};

} // namespace stencilc::cuda
