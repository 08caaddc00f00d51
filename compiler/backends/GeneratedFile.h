//===- GeneratedFile.h - A file a backend generates ------------------------===//
#pragma once

#include <string>

namespace stencilc::backend {

/// One generated file: the printers return these, and the driver writes them
/// all or none (driver/FileOutput.h).
struct GeneratedFile {
  std::string name; ///< file name, no directory
  std::string text;
};

} // namespace stencilc::backend
