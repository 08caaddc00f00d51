"""Reads the log of a YASK kernel run (yask_kernel.*.exe -no-print_suffixes) and prints the peer
report that bench/peers/report.py reads, as JSON (bench/peers/yask-peer.sh runs it).

  python3 yask_log.py LOG --size NX,NY,NZ --arch ARCH --trials R --steps S [--version V]

GPts/s come from YASK's own throughput lines: its 50th-percentile trial ("mid-throughput
(num-points/sec)") and its best trial. The grid YASK reports must be the one asked for, with
stencilc's x as YASK's z (YASK's last domain dimension is its unit-stride one); the block
sizes are those its auto-tuner left ("Final settings").
"""

import argparse
import json
import re
import sys


def parse(text):
    """The figures of one log; raises ValueError naming what is missing."""
    def one(pattern, what):
        m = re.search(pattern, text, re.MULTILINE)
        if not m:
            raise ValueError(f"no {what} in the log")
        return m

    def sizes(line):
        return {k: int(v) for k, v in re.findall(r"\b([txyz])=(\d+)", line)}

    out = {
        "grid": sizes(one(r"^ *global-domain-size:(.*)$", "global-domain-size").group(1)),
        "mid_pts_per_s": float(one(r"^ *mid-throughput \(num-points/sec\): *(\S+)",
                                   "mid-throughput (num-points/sec)").group(1)),
        "best_pts_per_s": float(one(r"^ *best-throughput \(num-points/sec\): *(\S+)",
                                    "best-throughput (num-points/sec)").group(1)),
        "trials": int(one(r"^ *num-trials: *(\d+)", "num-trials").group(1)),
    }
    block = re.search(r"^ *auto-tuner: block-size:(.*)$", text, re.MULTILINE)
    out["block"] = {k: v for k, v in sizes(block.group(1)).items() if k != "t"} if block else {}
    vector = re.search(r"^ *auto-tuner: vector-size:(.*)$", text, re.MULTILINE)
    out["vector"] = sizes(vector.group(1)) if vector else {}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--size", required=True, help="NX,NY,NZ as stencilc has it, x first")
    ap.add_argument("--arch", required=True)
    ap.add_argument("--trials", type=int, required=True)
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--version", default="unknown")
    a = ap.parse_args()
    size = [int(n) for n in a.size.split(",")]
    try:
        with open(a.log) as f:
            p = parse(f.read())
    except (OSError, ValueError) as e:
        sys.exit(f"yask_log.py: {a.log}: {e}")
    want = {"x": size[2], "y": size[1], "z": size[0]}
    if p["grid"] != want:
        sys.exit(f"yask_log.py: {a.log}: YASK ran {p['grid']}, not {want} "
                 f"(stencilc's {'x'.join(map(str, size))} with x as YASK's z)")
    if p["trials"] != a.trials:
        sys.exit(f"yask_log.py: {a.log}: YASK ran {p['trials']} trials, not {a.trials}")
    print(json.dumps({
        "peer": "yask", "yask_version": a.version, "stencil": "iso3dfd", "radius": 4,
        "arch": a.arch, "size": size,
        "yask_grid": "x".join(str(p["grid"][k]) for k in ("x", "y", "z")),
        "trials": a.trials, "steps": a.steps, "auto_tuner": "pre_auto_tune",
        "block": p["block"], "vector": p["vector"],
        "gpts_per_s": p["mid_pts_per_s"] / 1e9, "best_gpts_per_s": p["best_pts_per_s"] / 1e9}))


if __name__ == "__main__":
    main()
