#!/usr/bin/env python3
"""Checks the source tree keeps the architecture docs/DESIGN.md draws.

Rules, each with why:
  printers    Nothing under compiler/backends/ lowers or verifies kernels: the
              pipeline's lower-cpu and lower-cuda passes do, and the printers
              take the lowered modules (every decision in the kernel IR).
  pipeline    The pipeline's folders (support, math, ir, frontend, passes,
              target, kernel) include of the runtime only stencilc/abi/, the
              headers the compiler and the generated code agree on; the rest
              of compiler/ may include the runtime's grids, tables, .npy files
              and the grids' relative error (what the reference evaluator, the
              analyses and the
              seismic helpers work on), never its implementation (the kernel
              registry, time tiling, MPI, CUDA, the bench harness).
  file size   No source file in compiler/ or runtime/ is over 700 lines, except
              those listed in LONG_FILES with the reason.

Usage: check_structure.py [REPO_ROOT]; prints each violation and exits 1 if any.
"""
import pathlib
import re
import sys

PRINTER_FORBIDDEN = re.compile(
    r'\b(lowerToKernels|lowerCpu|lowerCuda|verifyKernels|planVectorBlocks)\b|"kernel/Lowering\.h"')
RUNTIME_INCLUDE = re.compile(r'#\s*include\s*[<"](stencilc/[^>"]+)[>"]')
PIPELINE_DIRS = ("support", "math", "ir", "frontend", "passes", "target", "kernel")
RUNTIME_DATA_HEADERS = {
    "stencilc/AlignedBuffer.h",
    "stencilc/Grid.h",
    "stencilc/CoefficientTable.h",
    "stencilc/KernelData.h",
    "stencilc/RelativeError.h",
    "stencilc/io/Npy.h",
}
MAX_LINES = 700
# path relative to the root -> why it may be longer
LONG_FILES = {}
SOURCE_SUFFIXES = {".h", ".cpp", ".cu", ".cuh"}


def sources(root, folder):
    for path in sorted((root / folder).rglob("*")):
        if path.suffix in SOURCE_SUFFIXES and path.is_file():
            yield path


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[2])
    problems = []
    for path in sources(root, "compiler"):
        rel = path.relative_to(root)
        text = path.read_text(encoding="utf-8")
        if rel.parts[1] == "backends":
            for n, line in enumerate(text.splitlines(), 1):
                if PRINTER_FORBIDDEN.search(line) and not line.lstrip().startswith("//"):
                    problems.append(f"{rel}:{n}: a printer lowers or verifies kernels "
                                    f"(the pipeline's lower-* passes do): {line.strip()}")
        for n, line in enumerate(text.splitlines(), 1):
            m = RUNTIME_INCLUDE.search(line)
            if not m:
                continue
            header = m.group(1)
            if header.startswith("stencilc/abi/"):
                continue
            if rel.parts[1] in PIPELINE_DIRS:
                problems.append(f"{rel}:{n}: the pipeline includes runtime header {header} "
                                "(only stencilc/abi/ is shared with the compiler)")
            elif header not in RUNTIME_DATA_HEADERS:
                problems.append(f"{rel}:{n}: the compiler includes runtime implementation "
                                f"header {header}")
    for folder in ("compiler", "runtime"):
        for path in sources(root, folder):
            rel = str(path.relative_to(root))
            lines = path.read_text(encoding="utf-8").count("\n")
            if lines > MAX_LINES and rel not in LONG_FILES:
                problems.append(f"{rel}: {lines} lines, more than {MAX_LINES} (split it by "
                                "what it does, or list it in LONG_FILES with the reason)")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} structure problem(s)")
        return 1
    print("structure: printers take lowered modules; includes and file sizes as the rules say")
    return 0


if __name__ == "__main__":
    sys.exit(main())
