//===- Geometry.cpp -------------------------------------------------------===//
#include "Geometry.h"

#include <fmt/format.h>

namespace seisio {

std::string Geometry::describe() const {
  return fmt::format("{}x{}x{} points, spacing {:g} x {:g} x {:g} m, origin ({:g}, {:g}, {:g}) m",
                     nx, ny, nz, dx, dy, dz, x0, y0, z0);
}

} // namespace seisio
