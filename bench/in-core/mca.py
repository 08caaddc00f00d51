#!/usr/bin/env python3
"""What bounds a generated row loop in the core, from the machine code alone.

    bench/in-core/mca.py STENCIL [--sweep N] [--cpu NAME] [--keep DIR]

Generates STENCIL's CPU kernels (`stencilc gen`), compiles them as `stencilc
bench` does (c++ -O3 -march=native -fopenmp), takes the innermost loop of the
sweep's row function that does the most vector arithmetic (the whole-block x
loop where the row has one, else the `omp simd` loop), and runs llvm-mca on
it for this machine's core (gcc's -march=native name; --cpu to choose
another). It prints, per iteration of that loop (one block of kW points):

  cycles         llvm-mca's steady-state cycles, and per point
  resource bound the cycles if only the busiest execution port limited it
  loads          memory operands read, and how many of them are row
                 pointers and strides reloaded from the stack (%rsp)
  stalls         the share of cycles dispatch stalled on a full load queue
                 or scheduler

A loop whose cycles sit well above its resource bound with the load queue
full is bound by how many loads it keeps in flight while its arithmetic
waits on them (docs/PERFORMANCE.md §What bounds each variant). This is a
model of the core, not a measurement: `bench/in-core/in-core.sh` times the
same loop. Environment: STENCILC (default build/compiler/stencilc), CXX
(default c++), LLVM_MCA (default llvm-mca-14, then llvm-mca).
"""
import argparse
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

REPO = pathlib.Path(__file__).resolve().parents[2]
LABEL = re.compile(r"^(\.L\w+):")
JUMP = re.compile(r"^\s+j\w+\s+(\.L\w+)\s*$")
VECTOR = re.compile(r"%[yz]mm\d+|%xmm\d+")


def fail(message):
    print(f"mca.py: {message}", file=sys.stderr)
    sys.exit(1)


def host_cpu(cxx):
    """The core gcc's -march=native names (znver3, sapphirerapids, ...)."""
    out = subprocess.run([cxx, "-march=native", "-Q", "--help=target"], capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[0] == "-march=":
            return fields[1]
    fail(f"{cxx} does not say which core -march=native is (pass --cpu)")


def row_function(asm, sweep):
    """The lines of the sweep's row function, or, where the compiler inlined it
    everywhere, of the naive variant that calls it (its OpenMP body included)."""
    lines = asm.splitlines()
    for name in (f"sweep{sweep}_row", f"sweep{sweep}_naive"):
        starts = [i for i, line in enumerate(lines)
                  if re.match(r"^[_.\w$]+:$", line) and name in line and "." not in line[:2]]
        if not starts:
            continue
        out = []
        for start in starts:
            end = next((i for i in range(start + 1, len(lines))
                        if lines[i].startswith("\t.size")), len(lines))
            out += lines[start:end]
        return out
    fail(f"no function sweep{sweep}_row or sweep{sweep}_naive in the compiled kernels")


def innermost_loops(function):
    """The instructions of each loop (a label and a later jump back to it) that holds no other."""
    labels = {}
    spans = []
    for i, line in enumerate(function):
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = i
        m = JUMP.match(line)
        if m and m.group(1) in labels:
            spans.append((labels[m.group(1)], i))
    inner = [(a, b) for a, b in spans
             if not any((c, d) != (a, b) and a <= c and d <= b for c, d in spans)]
    return [[l for l in function[a + 1:b + 1]
             if l.startswith("\t") and not l.lstrip().startswith(".")] for a, b in inner]


def arithmetic(loop):
    return sum(1 for l in loop if VECTOR.search(l) and not l.lstrip().startswith(("vmov", "mov")))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("stencil")
    parser.add_argument("--sweep", type=int, default=0)
    parser.add_argument("--cpu", help="the core llvm-mca models (default: this machine's)")
    parser.add_argument("--keep", help="write the generated kernel, its assembly and the loop here")
    args = parser.parse_args()
    stencil = pathlib.Path(args.stencil)
    if not stencil.is_file():
        fail(f"'{args.stencil}' is not a file")
    stencilc = os.environ.get("STENCILC", str(REPO / "build/compiler/stencilc"))
    cxx = os.environ.get("CXX", "c++")
    mca = os.environ.get("LLVM_MCA") or shutil.which("llvm-mca-14") or shutil.which("llvm-mca")
    if not mca:
        fail("no llvm-mca (set LLVM_MCA)")
    cpu = args.cpu or host_cpu(cxx)
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(args.keep) if args.keep else pathlib.Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        gen = subprocess.run([stencilc, "gen", str(stencil), "-o", str(out)], capture_output=True,
                             text=True)
        if gen.returncode:
            fail(f"stencilc gen failed:\n{gen.stderr}")
        # Named after the stencil the file declares, which need not be the file's name.
        sources = sorted(out.glob("*.cpp"))
        if len(sources) != 1:
            fail(f"stencilc gen wrote {len(sources)} .cpp files for {stencil.name}, not one")
        source = sources[0]
        asm_path = source.with_suffix(".s")
        cc = subprocess.run([cxx, "-std=c++20", "-O3", "-march=native", "-fopenmp",
                             f"-I{REPO / 'runtime/include'}", "-S", "-o", str(asm_path),
                             str(source)], capture_output=True, text=True)
        if cc.returncode:
            fail(f"compiling {source.name} failed:\n{cc.stderr}")
        loops = innermost_loops(row_function(asm_path.read_text(), args.sweep))
        if not loops:
            fail(f"sweep{args.sweep}_row has no loop")
        loop = max(loops, key=arithmetic)
        loop_path = out / "loop.s"
        loop_path.write_text("\n".join(loop) + "\n")
        iterations = 300
        report = subprocess.run([mca, f"-mcpu={cpu}", f"-iterations={iterations}",
                                 "-dispatch-stats", str(loop_path)], capture_output=True,
                                text=True)
        if report.returncode:
            fail(f"llvm-mca failed:\n{report.stderr}")
    text = report.stdout

    def number(pattern):
        m = re.search(pattern, text)
        return float(m.group(1)) if m else 0.0

    cycles = number(r"Total Cycles:\s+(\d+)") / iterations
    bound = number(r"Block RThroughput:\s+([\d.]+)")
    load_queue = number(r"LQ\s+- Load queue full:\s+\d+\s+\(([\d.]+)%\)")
    scheduler = number(r"SCHEDQ\s+- Scheduler full:\s+\d+\s+\(([\d.]+)%\)")
    memory = [l for l in loop if "(" in l]
    stores = [l for l in memory if re.search(r",\s*-?\w*\(%\w+(,%\w+,\d)?\)\s*$", l)
              and not l.lstrip().startswith(("cmp", "test"))]
    loads = len(memory) - len(stores)
    stack = sum(1 for l in memory if "(%rsp)" in l and l not in stores)
    width = 64 if any("%zmm" in l for l in loop) else 32 if any("%ymm" in l for l in loop) else 16
    real = "double" if re.search(r"\btype\s+double\b", stencil.read_text()) else "float"
    lanes = width // (8 if real == "double" else 4)
    print(f"{stencil.stem}: sweep {args.sweep}, the row loop with the most vector arithmetic, "
          f"llvm-mca -mcpu={cpu}")
    print(f"  instructions   {len(loop)} an iteration (a block of {lanes} {real} points)")
    print(f"  cycles         {cycles:.1f} an iteration, {cycles / lanes:.2f} a point")
    print(f"  resource bound {bound:.1f} cycles (the busiest port alone)")
    print(f"  loads          {loads}, of which {stack} from the stack; {len(stores)} stores")
    print(f"  stalls         load queue full {load_queue:.0f}% of cycles, "
          f"scheduler full {scheduler:.0f}%")


if __name__ == "__main__":
    main()
