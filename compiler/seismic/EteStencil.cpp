//===- EteStencil.cpp - ETE fits for the tables of a stencil ---------------===//
#include "seismic/EteStencil.h"

#include "stencilc/io/Npy.h"

#include <fstream>
#include <numeric>
#include <stdexcept>

namespace stencilc::seismic {

std::variant<EtePoints, std::string> etePointsForTable(const ir::Stencil &stencil, int table) {
  const ir::Table &t = stencil.tables.at(table);
  if (t.rowSource == ir::Table::RowSource::Literal)
    return "table '" + t.name +
           "' has a literal row count; an ETE table needs rows that follow a point set: "
           "classes(S) or points(S)";
  if (stencil.dims != 3)
    return std::string("the ETE fit is for 3D stencils");
  const ir::PointSet &set = stencil.pointSets.at(t.pointSet);
  EtePoints points;
  points.offsets = set.points;
  if (t.rowSource == ir::Table::RowSource::Classes) {
    points.classOf = set.classOf;
    points.numClasses = set.numClasses;
  } else {
    points.classOf.resize(set.points.size());
    std::iota(points.classOf.begin(), points.classOf.end(), 0);
    points.numClasses = int(set.points.size());
  }
  return points;
}

namespace {
template <typename T> void writeTable(const EteFit &fit, const std::string &path) {
  const auto table = makeCoefficientTable<T>(fit, rt::TableLayout::RowMajor);
  std::ofstream os(path, std::ios::binary | std::ios::trunc);
  if (!os)
    throw std::runtime_error(path + ": cannot open for writing");
  os << rt::formatNpyHeader(rt::npyDescr<T>(), {table.rows(), table.cols()});
  std::vector<T> values(table.data(), table.data() + table.size());
  rt::detail::toOrFromLittleEndian(values.data(), values.size());
  os.write(reinterpret_cast<const char *>(values.data()),
           std::streamsize(values.size() * sizeof(T)));
  if (!os.flush())
    throw std::runtime_error(path + ": write failed");
}
} // namespace

void writeTableNpy(const EteFit &fit, ir::ElemType type, const std::string &path) {
  if (type == ir::ElemType::Float)
    writeTable<float>(fit, path);
  else
    writeTable<double>(fit, path);
}

} // namespace stencilc::seismic
