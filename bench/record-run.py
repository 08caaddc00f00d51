#!/usr/bin/env python3
"""Runs `stencilc bench --json` (and, with --devito, bench/peers/devito-peer.sh --json) and
writes one JSON file that carries the machine beside the figures, for docs/results/.

  bench/record-run.py OUT.json [--devito] [--devito-args ARGS] [--yask CHECKOUT]
                      [--yask-args ARGS] [--stencilc PATH] [--note TEXT]
                      [--bench 'STENCIL [stencilc bench options]']...
                      [--tune 'STENCIL [stencilc tune options]']...

Each --bench is one `stencilc bench dsl-examples/STENCIL.stencil --json OPTIONS` run, timed in
turn. The file holds: `kind` ("cpu"), `date` (UTC, ISO 8601), `commit` (git HEAD, "-dirty" when
compiler/, runtime/ or templates/ differ from it), `stencilc_commit` (the binary's, where it
differs: --stencilc-commit), `note`, `machine` (CPU model, family/model, cores, ISA flags that the kernels use,
L1d/L2 per core and L3 from sysfs, the kernel's transparent-huge-page mode), and `runs`: per
run the command, the 1-minute load average before and after (other work on the machine skews
every figure) and the tool's own JSON (`bench`: stencilc bench's; `peers`: devito-peer.sh's, or
with --yask yask-peer.sh's, which runs Devito at the same grids too; `tune`: the entry
`stencilc tune` wrote, with its stencil and type, beside the fastest found its default's rate).
docs/PERFORMANCE.md's CPU tables are made from such files by scripts/results-tables.py.
"""
import argparse
import datetime
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
ISA = ("sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl", "avx512_bf16", "amx_tile")


def sysfs_caches():
    """L1d, L2 (per core) and L3 bytes of cpu0, as the kernels' planner reads them."""
    out = {}
    base = pathlib.Path("/sys/devices/system/cpu/cpu0/cache")
    for idx in sorted(base.glob("index*")):
        try:
            level = (idx / "level").read_text().strip()
            kind = (idx / "type").read_text().strip()
            size = (idx / "size").read_text().strip()
        except OSError:
            continue
        if kind == "Instruction":
            continue
        mult = {"K": 1024, "M": 1024 * 1024}.get(size[-1], 1)
        value = int(size.rstrip("KM")) * mult
        out[{"1": "l1d_bytes", "2": "l2_bytes", "3": "l3_bytes"}.get(level, "l" + level)] = value
    return out


def machine():
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            if ":" not in line:
                if info:
                    break
                continue
            k, v = (s.strip() for s in line.split(":", 1))
            info.setdefault(k, v)
    flags = set(info.get("flags", "").split())
    thp = "unknown"
    try:
        text = pathlib.Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text()
        thp = text[text.index("[") + 1:text.index("]")]
    except (OSError, ValueError):
        pass
    return {"cpu": info.get("model name", "unknown"), "vendor": info.get("vendor_id", "unknown"),
            "family": info.get("cpu family"), "model": info.get("model"),
            "cores": os.cpu_count(), "isa": [f for f in ISA if f in flags],
            "hypervisor": "hypervisor" in flags, "caches": sysfs_caches(),
            "transparent_hugepages": thp}


def commit():
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--",
                                "compiler", "runtime", "templates"]).returncode != 0
        return head + ("-dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def run(label, argv, parse=True):
    print(f"record-run: {' '.join(argv)}", file=sys.stderr, flush=True)
    before = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.timezone.utc)
    p = subprocess.run(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"record-run: '{' '.join(argv)}' failed ({p.returncode})")
    return {"command": " ".join(shlex.quote(a) for a in argv),
            "started": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "load_average_1min_before": round(before, 2),
            "load_average_1min_after": round(os.getloadavg()[0], 2),
            label: json.loads(p.stdout) if parse else p.stdout}


def run_tune(argv, stencil):
    """`stencilc tune ... -o FILE`: the one entry it writes, with its stencil and type."""
    with tempfile.TemporaryDirectory() as work:
        out = pathlib.Path(work) / "tuning.json"
        record = run("stdout", argv + ["-o", str(out)], parse=False)
        machines = json.loads(out.read_text())["machines"]
    types = machines[0]["stencils"][stencil]
    [(elem, entry)] = [(k, v) for k, v in types.items() if k != "hash"]
    record["tune"] = dict(entry, stencil=stencil, type=elem)
    return record


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--bench", action="append", default=[],
                    help="'STENCIL [stencilc bench options]', one run each")
    ap.add_argument("--tune", action="append", default=[],
                    help="'STENCIL [stencilc tune options]', one run each")
    ap.add_argument("--devito", action="store_true", help="also run bench/peers/devito-peer.sh")
    ap.add_argument("--devito-args", default="", help="options for devito-peer.sh")
    ap.add_argument("--yask", default="", metavar="CHECKOUT",
                    help="also run bench/peers/yask-peer.sh CHECKOUT --devito")
    ap.add_argument("--yask-args", default="", help="more options for yask-peer.sh")
    ap.add_argument("--stencilc", default=str(ROOT / "build/compiler/stencilc"))
    ap.add_argument("--note", default="", help="what the reader should know about this run")
    ap.add_argument("--stencilc-commit", default="",
                    help="the commit the --stencilc binary was built from (default: git HEAD)")
    a = ap.parse_args()
    if not a.bench and not a.tune and not a.devito and not a.yask:
        ap.error("nothing to run: give --bench, --tune, --devito or --yask")
    record = {"kind": "cpu",
              "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
              "commit": commit(), "stencilc_commit": a.stencilc_commit or commit(),
              "note": a.note, "machine": machine(),
              "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset (all cores)"),
              "runs": []}
    for spec in a.bench:
        words = shlex.split(spec)
        argv = [a.stencilc, "bench", f"dsl-examples/{words[0]}.stencil", "--json"] + words[1:]
        record["runs"].append(run("bench", argv))
    for spec in a.tune:
        words = shlex.split(spec)
        argv = [a.stencilc, "tune", f"dsl-examples/{words[0]}.stencil"] + words[1:]
        record["runs"].append(run_tune(argv, words[0]))
    if a.devito:
        argv = ["bash", "bench/peers/devito-peer.sh", "--json", "--stencilc", a.stencilc]
        record["runs"].append(run("peers", argv + shlex.split(a.devito_args)))
    if a.yask:
        argv = ["bash", "bench/peers/yask-peer.sh", a.yask, "--devito", "--json", "--stencilc",
                a.stencilc]
        record["runs"].append(run("peers", argv + shlex.split(a.yask_args)))
    pathlib.Path(a.out).write_text(json.dumps(record, indent=1) + "\n")
    print(f"record-run: wrote {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
