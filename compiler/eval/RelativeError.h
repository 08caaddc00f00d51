//===- RelativeError.h - A kernel's output against the reference's --------===//
//
// The compiler's name for rt::relativeError (stencilc/RelativeError.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <stencilc/RelativeError.h>

namespace stencilc::eval {

using rt::relativeError;

} // namespace stencilc::eval
