# StencilcStencilNames.cmake - The names of the stencils a .stencil file defines.
#
# stencilc_add_kernels must declare the generated files when CMake runs, before
# any stencilc exists to ask (inside this source tree it is built later), and
# `stencilc gen` names each kernel after its stencil. So the names are read
# here from the text: comments removed, then every `stencil NAME {` (the DSL's
# only top-level form, docs/DSL.md). StencilcGenerate.cmake reads them again
# after each generation to notice a renamed, added or removed stencil.

# stencilc_stencil_names(<out-var> <file.stencil>)
function(stencilc_stencil_names out_var stencil_file)
  file(READ "${stencil_file}" text)
  # Block comments first (not nested), then line comments; the DSL has no
  # string literals, so no comment marker can hide inside one.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" " " text "${text}")
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(REGEX MATCHALL "(^|[^A-Za-z0-9_])stencil[ \t\r\n]+[A-Za-z_][A-Za-z0-9_]*[ \t\r\n]*{"
         headers "${text}")
  set(names "")
  foreach(header IN LISTS headers)
    string(REGEX REPLACE ".*stencil[ \t\r\n]+([A-Za-z_][A-Za-z0-9_]*).*" "\\1" name "${header}")
    list(APPEND names "${name}")
  endforeach()
  set(${out_var} "${names}" PARENT_SCOPE)
endfunction()
