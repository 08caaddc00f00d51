"""Checks the instruction terms of `stencilc analyze --machine h200 --json` (GPU model).

  check_gpu_instructions.py estimate REPORT.json
      prints the instructions the plan's estimate adds to a point's flops for its calls
      (each distinct sin, cos, exp, sqrt, abs at its PTX cost, less the one flop it counts),
      and FP64 instructions per point, for gmem.
  check_gpu_instructions.py ptxas REPORT.json PTX_INSTRUCTIONS PTX_FP64 SPILL_BYTES
      with the counts the stand-in nvcc (Inputs/fake-cuda/nvcc) gives: gmem and ro take their
      own PTX count; the marches gmem's less gmem's global accesses plus their own, and
      their spills' local accesses (one instruction per element of spill bytes); the spill
      sectors are in the l1 term.
"""
import json
import math
import sys

WARP = 32
SMS, CLOCK, L1_SECTORS, FP64_RATE = 132, 1.98, 4, 2  # bench/machines/h200.json

report = json.load(open(sys.argv[2]))[0]
variants = {v["name"]: v for v in report["variants"]}
elem = 8 if report["type"] == "double" else 4


def accesses(v):
    p = v["per_point"]
    return p["global_load_requests"] + p["global_store_requests"] + p["shared_requests"]


def close(a, b, what):
    if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9):
        sys.exit(f"{what}: {a} != {b}")


if sys.argv[1] == "estimate":
    g = variants["gmem"]
    assert g["instructions_from"] == "estimate", g["instructions_from"]
    calls = (g["warp_instructions_per_point"] - accesses(g)) * WARP - report["flops_per_point"]
    print(f"calls {round(calls)}")
    print(f"fp64 {round(g['fp64_instructions_per_point'] * WARP)}")
    fp64 = g["bounds_gpts"]["fp64"]
    if report["type"] == "double":
        close(fp64, SMS * CLOCK * FP64_RATE / g["fp64_instructions_per_point"], "fp64 term")
    elif fp64 is not None:
        sys.exit(f"a float kernel has an fp64 bound: {fp64}")
else:
    ptx, ptx_fp64, spill = (float(a) for a in sys.argv[3:6])
    g = variants["gmem"]
    arithmetic = ptx - WARP * (g["per_point"]["global_load_requests"]
                               + g["per_point"]["global_store_requests"])
    for name, v in variants.items():
        close(v["fp64_instructions_per_point"], ptx_fp64 / WARP, f"{name} fp64")
        if name in ("gmem", "ro"):
            assert v["instructions_from"] == "ptx", (name, v["instructions_from"])
            close(v["warp_instructions_per_point"], ptx / WARP, f"{name} instructions")
            continue
        assert v["instructions_from"] == "ptx of gmem", (name, v["instructions_from"])
        spilled = v["spill_bytes_per_point"]
        close(v["warp_instructions_per_point"],
              arithmetic / WARP + accesses(v) + spilled / elem / WARP, f"{name} instructions")
        sectors = v["per_point"]["global_load_sectors"] + spilled / 32
        close(v["bounds_gpts"]["l1"], SMS * CLOCK * L1_SECTORS / sectors, f"{name} l1 term")
        print(f"{name} spills {round(spilled)} in_l1 {v['spills_in_l1']}")
