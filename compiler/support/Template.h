//===- Template.h - Fill the emitters' file templates ---------------------===//
//
// Generated files are written from templates in templates/ (embedded in the
// binary at build time) with `@NAME@` placeholders, so the shape of a
// generated file can be read in one place instead of in emitter code.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace stencilc {

/// The embedded template at `path` relative to templates/ (e.g. "cpu/kernel.h.tmpl").
/// Throws std::logic_error if there is none: a build problem, not a user error.
std::string_view embeddedTemplate(std::string_view path);

/// `text` with every `@NAME@` replaced by values.at(NAME). A placeholder without a
/// value, or a value nobody asked for, throws std::logic_error (an emitter bug).
std::string renderTemplate(std::string_view text, const std::map<std::string, std::string> &values);

} // namespace stencilc
