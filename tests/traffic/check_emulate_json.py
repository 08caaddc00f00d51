#!/usr/bin/env python3
"""`stencilc emulate --json` on one example: the JSON's structure, and known counts.

Usage: check_emulate_json.py STENCILC ETE37_STENCIL

Runs the traditional variant of ete37 (float) with a layered index on a 32^3 grid. Its
table rows sit in shared memory. The layered model spreads the Nd index values over the
depth: with Nd = 32 over 32 planes a warp's row of 32 points holds one to four adjacent
values (a 512^3 grid with Nd = 902 holds up to 14, within 13 columns), so every table gather is a
broadcast of words in distinct banks; its tile stores and loads are rows of consecutive
floats, copied as 16-byte vectors: 4 wavefronts each (docs/EMULATOR-COUNTERS.md), every other
shared request one. (With
Nd = 902 at 32^3 a row spans up to 66 columns, and two 32 apart share a bank.) Then bad
arguments must fail with exit status 2 and print nothing on stdout.
"""
import json
import os
import subprocess
import sys

COUNTERS = [
    "global_load_requests", "global_load_sectors", "global_store_requests",
    "global_store_sectors", "shared_requests", "shared_wavefronts", "barriers",
    "l1_distinct_sectors", "dram_bytes_estimate",
]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def run(stencilc, args):
    return subprocess.run([stencilc, "emulate"] + args, capture_output=True, text=True)


def main():
    stencilc, ete37 = sys.argv[1], sys.argv[2]
    size = 32
    done = run(stencilc, [ete37, "--backend", "cuda", "--variant", "traditional", "--index",
                          "layered", "--nd", "32", "--size", str(size), "--type", "float",
                          "--json"])
    check(done.returncode == 0, f"emulate failed ({done.returncode}): {done.stderr}")
    report = json.loads(done.stdout)
    for key, value in [("stencil", "ete37"), ("variant", "traditional"), ("type", "float"),
                       ("index", "layered"), ("size", [size] * 3), ("points", size**3)]:
        check(report.get(key) == value, f"{key}: {report.get(key)!r}, expected {value!r}")
    launches = report["launches"]
    check(isinstance(launches, list) and len(launches) >= 1, "no launches")
    for launch in launches:
        check(isinstance(launch["kernel"], str) and launch["kernel"].startswith("sweep"),
              f"kernel name {launch['kernel']!r}")
        for key in ("grid", "block"):
            check(len(launch[key]) == 3 and all(isinstance(v, int) and v >= 1 for v in launch[key]),
                  f"{key}: {launch[key]!r}")
        check(isinstance(launch["shared_bytes"], int) and launch["shared_bytes"] > 0,
              "traditional uses shared memory")
        for key in COUNTERS:
            check(isinstance(launch[key], int) and launch[key] >= 0, f"{key}: {launch[key]!r}")
        check(launch["global_load_requests"] > 0 and launch["global_store_requests"] > 0,
              "no global requests")
        # A request touches at least one sector and, for 4-byte lanes, at most 32.
        for kind in ("load", "store"):
            requests = launch[f"global_{kind}_requests"]
            sectors = launch[f"global_{kind}_sectors"]
            check(requests <= sectors <= 32 * requests, f"{kind}: {sectors} sectors, {requests} requests")
        check(launch["barriers"] > 0, "traditional has a barrier per plane")
        check(launch["shared_requests"] > 0, "no shared requests")
        # The tile copies store 16-byte vectors (ete37's halo is 4 floats, the grid's rows start
        # on 64 bytes): 32 lanes x 16 bytes, 4 wavefronts a request, the one shared request here
        # that is not one wavefront. Each block copies its (bx + 8) x (by + 8) tile once a plane
        # it marches, 4 floats a lane, whole warps (every tile row lies inside the grid's halo).
        bx, by = launch["block"][0], launch["block"][1]
        blocks = launch["grid"][0] * launch["grid"][1] * launch["grid"][2]
        planes = size // launch["grid"][2]
        vectors = (bx + 8) * (by + 8) // 4
        tile_requests = blocks * planes * -(-vectors // 32)
        check(launch["shared_wavefronts"] == launch["shared_requests"] + 3 * tile_requests,
              f"layered table gathers are broadcasts: {launch['shared_wavefronts']} wavefronts "
              f"for {launch['shared_requests']} shared requests, {tile_requests} of them "
              f"16-byte tile stores")
        check(launch["dram_bytes_estimate"] % 32 == 0, "DRAM bytes are whole sectors")
    per_point = report["per_point"]
    check(sorted(per_point) == sorted(COUNTERS), f"per_point keys {sorted(per_point)}")
    for key in COUNTERS:
        expected = sum(launch[key] for launch in launches) / size**3
        check(abs(per_point[key] - expected) <= 1e-9 * max(1.0, expected),
              f"per_point {key}: {per_point[key]}, expected {expected}")

    # Bad arguments: a clear error, exit status 2, nothing on stdout.
    for args, words in [
        (["--backend", "cuda", "--variant", "tiled"], ["tiled", "gmem", "traditional"]),
        (["--backend", "cuda", "--size", "6"], ["6", "needs at least 9"]),
        (["--backend", "cuda", "--size", "32,x,32"], ["x"]),
        (["--backend", "cuda", "--variant", "gmem", "--rows", "2"], ["--rows", "gmem"]),
        (["--backend", "cuda", "--variant", "traditional", "--rows", "3"], ["--rows", "3"]),
        (["--backend", "cpu"], ["--backend cuda"]),
        # laplacian7, beside ete37 in dsl-examples/, has no index field.
        (["--backend", "cuda", "--index", "layered", "@laplacian7"], ["laplacian7", "no index field"]),
    ]:
        stencil = ete37
        if args[-1].startswith("@"):
            stencil = os.path.join(os.path.dirname(ete37), args.pop()[1:] + ".stencil")
        done = run(stencilc, [stencil] + args)
        check(done.returncode == 2, f"{args}: exit status {done.returncode}, expected 2")
        check(done.stdout == "", f"{args}: printed {done.stdout!r}")
        for word in words:
            check(word in done.stderr, f"{args}: {word!r} not in {done.stderr!r}")
    print("emulate --json: structure and broadcasts as expected")


if __name__ == "__main__":
    main()
