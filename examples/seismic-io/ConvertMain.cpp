//===- ConvertMain.cpp - Velocity models between .npy and SEG-Y ------------===//
//
//   seismic-convert MODEL.npy MODEL.segy --spacing H [--origin X,Y,Z]
//   seismic-convert MODEL.segy MODEL.npy
//
// A .npy model (float32, shape (nz, ny, nx)) carries no geometry, so going to
// SEG-Y takes the spacing (and origin, default 0) from the command line;
// coming back prints the file's geometry. docs/SEISMIC.md §Files.
//
//===----------------------------------------------------------------------===//
#include "SegyModel.h"

#include "stencilc/io/Npy.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

bool endsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}
bool isSegy(const std::string &path) { return endsWith(path, ".segy") || endsWith(path, ".sgy"); }

double number(const std::string &option, const std::string &text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception &) {
  }
  if (used == 0 || used != text.size())
    throw std::invalid_argument(fmt::format("{}: expected a number, got '{}'", option, text));
  return value;
}

int run(int argc, char **argv) {
  std::string in, out;
  double spacing = 0;
  double origin[3] = {0, 0, 0};
  std::vector<std::string> args;
  for (int a = 1; a < argc; ++a) { // --option=value is --option value
    const std::string arg = argv[a];
    const auto equals = arg.find('=');
    if (arg.rfind("--", 0) == 0 && equals != std::string::npos) {
      args.push_back(arg.substr(0, equals));
      args.push_back(arg.substr(equals + 1));
    } else {
      args.push_back(arg);
    }
  }
  const int count = int(args.size());
  for (int a = 0; a < count; ++a) {
    const std::string arg = args[a];
    if ((arg == "--spacing" || arg == "--origin") && a + 1 >= count)
      throw std::invalid_argument(arg + " needs a value");
    if (arg == "--spacing") {
      spacing = number(arg, args[++a]);
    } else if (arg == "--origin") {
      const std::string text = args[++a];
      const auto c1 = text.find(','), c2 = text.find(',', c1 + 1);
      if (c1 == std::string::npos || c2 == std::string::npos)
        throw std::invalid_argument("--origin: expected X,Y,Z in metres, got '" + text + "'");
      origin[0] = number(arg, text.substr(0, c1));
      origin[1] = number(arg, text.substr(c1 + 1, c2 - c1 - 1));
      origin[2] = number(arg, text.substr(c2 + 1));
    } else if (in.empty()) {
      in = arg;
    } else if (out.empty()) {
      out = arg;
    } else {
      throw std::invalid_argument("unexpected argument '" + arg + "'");
    }
  }
  if (out.empty())
    throw std::invalid_argument("usage: seismic-convert IN OUT [--spacing H] [--origin X,Y,Z]");
  if (endsWith(in, ".npy") && isSegy(out)) {
    if (!(spacing > 0))
      throw std::invalid_argument("a .npy model has no spacing: give --spacing H (metres)");
    const stencilc::rt::Grid<float> model = stencilc::rt::readNpy<float>(in, 0);
    if (model.dims() != 3)
      throw std::invalid_argument(in + ": a velocity model is 3D, shape (nz, ny, nx)");
    seisio::Geometry g{model.nx(), model.ny(), model.nz(), spacing,  spacing,
                       spacing,    origin[0],  origin[1],  origin[2]};
    seisio::writeSegyModel(out, model, g);
    std::printf("%s: %s\n", out.c_str(), g.describe().c_str());
    return 0;
  }
  if (isSegy(in) && endsWith(out, ".npy")) {
    if (spacing != 0 || origin[0] != 0 || origin[1] != 0 || origin[2] != 0)
      throw std::invalid_argument("a SEG-Y model has its own geometry: no --spacing or --origin");
    const seisio::Geometry g = seisio::readSegyModelGeometry(in);
    auto model = stencilc::rt::Grid<float>::make3d(g.nx, g.ny, g.nz, 0);
    seisio::readSegyModel(in, g, {0, 0, 0, g.nx, g.ny, g.nz}, model);
    stencilc::rt::writeNpy(model, out);
    std::printf("%s: %s%s\n", in.c_str(), g.describe().c_str(),
                g.lateralFromFile ? "" : " (no trace coordinates: dx and dy taken as dz)");
    return 0;
  }
  throw std::invalid_argument("converts .npy to .segy/.sgy or back, got '" + in + "' to '" + out +
                              "'");
}

} // namespace

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "seismic-convert: error: %s\n", e.what());
    return 1;
  }
}
