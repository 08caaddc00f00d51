# lit configuration for the golden tests of the `stencilc` command.
#
# Run through ctest (`ctest --test-dir build -R lit`), which uses the
# lit.site.cfg.py that CMake writes into build/tests/lit, or by hand against
# the source tree:
#   python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv \
#       --param stencilc=build/compiler/stencilc tests/lit
#
# Substitutions: %stencilc (the driver), %examples (dsl-examples/), %bench (bench/),
# FileCheck and not (from llvm-14-tools).
import os

import lit.formats

config.name = "stencilc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".stencil", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)

src_root = getattr(config, "stencilc_src_root", None) or os.path.abspath(
    os.path.join(config.test_source_root, "..", ".."))
stencilc = lit_config.params.get("stencilc") or getattr(config, "stencilc_path", None)
if not stencilc:
  lit_config.fatal("no stencilc: run through ctest, or pass --param stencilc=PATH")
stencilc = os.path.abspath(stencilc)
if not os.path.isfile(stencilc):
  lit_config.fatal("stencilc not built: %s does not exist" % stencilc)

# Temporary files (%t) go into the build tree, never next to the tests; by hand,
# that is the tree stencilc was built in (BUILD/compiler/stencilc).
obj_root = getattr(config, "stencilc_obj_root", None) or os.path.dirname(os.path.dirname(stencilc))
config.test_exec_root = os.path.join(obj_root, "tests", "lit")

llvm_tools_dir = getattr(config, "llvm_tools_dir", None) or "/usr/lib/llvm-14/bin"


def llvm_tool(name):
  path = os.path.join(llvm_tools_dir, name)
  if not os.path.isfile(path):
    lit_config.fatal("%s not found in %s: install llvm-14-tools" % (name, llvm_tools_dir))
  return path


def command_word(name):
  """Matches `name` as a command, not inside a path or a file name (not-closed.stencil)."""
  return r"(?<![\w./-])" + name + r"(?![\w./-])"


# lit adds these before its own %s, so %stencilc is never read as %s + "tencilc".
config.substitutions.append(("%stencilc", stencilc))
config.substitutions.append(("%examples", os.path.join(src_root, "dsl-examples")))
config.substitutions.append(("%bench", os.path.join(src_root, "bench")))
config.substitutions.append((command_word("FileCheck"), llvm_tool("FileCheck")))
config.substitutions.append((command_word("not"), llvm_tool("not")))

# Diagnostics must not depend on the user's terminal or locale.
config.environment["LC_ALL"] = "C"
config.environment.pop("TERM", None)
