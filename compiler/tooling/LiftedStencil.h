//===- LiftedStencil.h - A stencil recovered from a C++ loop nest ----------===//
//
// What `lift` learns from one loop nest, in two halves: the stencil itself
// (fields with roles, scalars, tables and the update, in DSL spelling), which
// StencilText writes as a .stencil block, and how the C++ program's own arrays
// map onto the generated kernel's views, which KernelCall writes as the call
// that `rewrite` puts in place of the loops. Plain data, free of Clang types.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <array>
#include <string>
#include <vector>

namespace stencilc::tooling {

enum class LiftedRole { Time, Input, Index, Output };

struct LiftedField {
  std::string name;   ///< DSL name
  std::string member; ///< its member in the kernel's Args (KernelNames), set once checked
  LiftedRole role = LiftedRole::Time;
  std::string indexType;  ///< Index only: "uint8", "uint16" or "int32"
  std::string overwrites; ///< Output only: the time level it may be written over, or empty
  // The C++ view: point (0,0,0) of the kernel is `origin`, (i,j,k) is
  // origin[i + j * line + k * plane].
  std::string origin;
  std::string line;
  std::string plane;
};

struct LiftedTable {
  std::string name;
  int rows = 0;
  int cols = 0;
  std::string data;   ///< C++ pointer to element [0][0]; rows are `cols` apart
  std::string member; ///< its member in the kernel's Args, set once checked
};

struct LiftedScalar {
  std::string name;   ///< DSL name
  std::string value;  ///< the C++ expression that gives its value at the call
  std::string member; ///< its member in the kernel's Args, set once checked
};

struct LiftedUpdate {
  std::string output; ///< the output field's DSL name
  std::string value;  ///< the right-hand side, in DSL syntax
};

struct LiftedStencil {
  std::string name;
  std::string sourceFile; ///< the C++ file, for the header comment
  unsigned line = 0;      ///< where the loop nest starts
  int dims = 3;
  std::string elemType = "float";
  std::vector<LiftedField> fields; ///< in declaration order
  std::vector<LiftedTable> tables;
  std::vector<LiftedScalar> scalars;
  std::vector<LiftedUpdate> updates; ///< one per output, in the order the loops wrote them
  /// Interior extent in C++, x first (the trip counts of the loops).
  std::array<std::string, 3> extent{"1", "1", "1"};
};

} // namespace stencilc::tooling
