"""Prints devito-peer.sh's table (or its JSON) from stencilc's and Devito's JSON reports.

  python3 report.py [--json] --command CMD STENCIL_JSON DEVITO_JSON [STENCIL_JSON DEVITO_JSON ...]
"""

import argparse
import json
import os


def machine():
    model = "unknown"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {"cpu": model, "cores": os.cpu_count(),
            "omp_num_threads": os.environ.get("OMP_NUM_THREADS", "unset (all cores)"),
            # Other work on the machine skews both tools' figures: shown so a noisy run is seen.
            "load_average_1min_at_end": os.getloadavg()[0]}


def best(variants):
    top = max(variants, key=lambda v: v["gpts_per_s"])
    return {"name": top["name"], "time_steps_per_pass": top["time_steps_per_pass"],
            "block_y": top["block_y"], "block_z": top["block_z"], "gpts_per_s": top["gpts_per_s"]}


def tiles(b):
    """The tiles a best row ran with: y x z blocks, or time tiles in its /T rows."""
    if b["block_y"] <= 0 and b["block_z"] <= 0:
        return "default"
    return f"{b['block_y']}x{b['block_z']}"


def row(stencilc, devito):
    single = [v for v in stencilc["variants"] if v["time_steps_per_pass"] == 1]
    peer = devito["gpts_per_s"]
    r = {"stencil": stencilc["stencil"], "size": stencilc["size"],
         "stencilc_repeats": stencilc["repeats"], "bytes_per_point": stencilc.get("bytes_per_point"),
         "stream_triad_gbytes_per_s": stencilc["stream_triad_gbytes_per_s"],
         "stencilc_best_single_sweep": best(single), "stencilc_best": best(stencilc["variants"]),
         "devito": devito}
    r["ratio_single_sweep_to_devito"] = r["stencilc_best_single_sweep"]["gpts_per_s"] / peer
    r["ratio_best_to_devito"] = r["stencilc_best"]["gpts_per_s"] / peer
    return r


def print_table(report):
    m = report["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, OMP_NUM_THREADS {m['omp_num_threads']}, "
          f"load average {m['load_average_1min_at_end']:.1f} (1 min, at the end)")
    print(f"command: {report['command']}")
    for r in report["rows"]:
        d = r["devito"]
        size = "x".join(map(str, r["size"]))
        print(f"\n{r['stencil']}, {size}, float; triad {r['stream_triad_gbytes_per_s']:.1f} GB/s; "
              f"stencilc: median of {r['stencilc_repeats']} timed steps per variant; Devito "
              f"{d['devito_version']}: median of {d['repeats']} runs of {d['steps']} steps")
        print(f"  {'':33} {'variant':22} {'tiles':>9} {'GPts/s':>8} {'vs Devito':>9}")
        for label, key, ratio in (("stencilc, best single sweep", "stencilc_best_single_sweep",
                                   "ratio_single_sweep_to_devito"),
                                  ("stencilc, best incl. time-tiled", "stencilc_best",
                                   "ratio_best_to_devito")):
            b = r[key]
            print(f"  {label:33} {b['name']:22} {tiles(b):>9} {b['gpts_per_s']:8.3f} "
                  f"{r[ratio]:8.2f}x")
        # Older Devito reports (before --autotune) carry neither key.
        tuned = d.get("tuned") or {}
        shape = "x".join(str(v) for k, v in sorted(tuned.items()) if k.endswith("_size"))
        print(f"  {'Devito, own timer around apply':33} {'opt=advanced':22} "
              f"{shape or 'default':>9} {d['gpts_per_s']:8.3f}")
        print(f"  {'Devito, its section timers':33} {'':22} {'':>9} "
              f"{d['devito_reported_gpts_per_s']:8.3f}")
        if d.get("autotune", "off") != "off":
            print(f"  (Devito autotuned, level {d['autotune']}: {tuned}; stencilc bench --search)")

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--command", required=True)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    if len(a.reports) % 2:
        ap.error("reports come in pairs: stencilc's JSON, then Devito's")
    rows = []
    for i in range(0, len(a.reports), 2):
        with open(a.reports[i]) as s, open(a.reports[i + 1]) as d:
            rows.append(row(json.load(s), json.load(d)))
    report = {"machine": machine(), "command": a.command, "rows": rows}
    if a.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
