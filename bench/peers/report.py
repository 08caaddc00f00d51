"""Prints the peers' table (or its JSON) from stencilc's and the peers' JSON reports: Devito's
(devito-peer.sh) and YASK's (yask-peer.sh), one table per stencil and grid, a ratio column per peer.

  python3 report.py [--json] --command CMD STENCILC_JSON PEER_JSON [PEER_JSON ...] [STENCILC_JSON ...]

Each `stencilc bench --json` report is followed by the reports of the peers that ran the same
problem; a peer report says which peer it is (`"peer": "devito"` or `"yask"`) and its grid
(`size`, x first), and is compared with stencilc's rows at that grid (a report from a default
`stencilc bench` run holds rows at two grids, each row with its `size`).
"""

import argparse
import json
import os
import sys

PEERS = {"devito": "Devito", "yask": "YASK"}


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


def peer_name(report):
    """'devito' or 'yask'; None for a stencilc report (it has rows: `variants`)."""
    if "variants" in report:
        return None
    name = report.get("peer", "devito" if "devito_version" in report else None)
    if name not in PEERS:
        raise ValueError(f"neither a stencilc report nor a known peer's (peer {name!r})")
    return name


def at_size(stencilc, size):
    """stencilc's rows at `size` (rows without their own size are at the report's) and the
    triad measured with them."""
    rows = [v for v in stencilc["variants"] if list(v.get("size", stencilc["size"])) == size]
    triad = stencilc["stream_triad_gbytes_per_s"]
    for s in stencilc.get("row_sets", []):
        if list(s["size"]) == size:
            triad = s["stream_triad_gbytes_per_s"]
    return rows, triad


def row(stencilc, peers):
    """One table: stencilc's best rows at the peers' grid, each peer's figure and the ratios."""
    peers = sorted(peers, key=lambda peer: list(PEERS).index(peer[0]))  # Devito, then YASK
    size = list(peers[0][1]["size"])
    for name, p in peers[1:]:
        if list(p["size"]) != size:
            raise ValueError(f"{PEERS[name]} ran at {p['size']}, the peer before it at {size}: "
                             "one table holds one grid")
    rows, triad = at_size(stencilc, size)
    if not rows:
        sizes = sorted({tuple(v.get("size", stencilc["size"])) for v in stencilc["variants"]})
        raise ValueError(f"stencilc's {stencilc['stencil']} report has no rows at "
                         f"{'x'.join(map(str, size))} (it has {sizes})")
    single = [v for v in rows if v["time_steps_per_pass"] == 1]
    r = {"stencil": stencilc["stencil"], "size": size,
         "stencilc_repeats": stencilc["repeats"], "bytes_per_point": stencilc.get("bytes_per_point"),
         "stream_triad_gbytes_per_s": triad,
         "stencilc_best_single_sweep": best(single), "stencilc_best": best(rows),
         "peers": [name for name, _ in peers]}
    for name, p in peers:
        r[name] = p
        r[f"ratio_single_sweep_to_{name}"] = r["stencilc_best_single_sweep"]["gpts_per_s"] / p["gpts_per_s"]
        r[f"ratio_best_to_{name}"] = r["stencilc_best"]["gpts_per_s"] / p["gpts_per_s"]
    return r


def describe(name, p):
    if name == "devito":
        return f"Devito {p['devito_version']}: median of {p['repeats']} runs of {p['steps']} steps"
    return (f"YASK iso3dfd radius {p['radius']} ({p['arch']}): median of {p['trials']} trials of "
            f"{p['steps']} steps, after its auto-tuner")


def print_table(report):
    m = report["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, OMP_NUM_THREADS {m['omp_num_threads']}, "
          f"load average {m['load_average_1min_at_end']:.1f} (1 min, at the end)")
    print(f"command: {report['command']}")
    for r in report["rows"]:
        peers = r.get("peers", ["devito"])
        size = "x".join(map(str, r["size"]))
        print(f"\n{r['stencil']}, {size}, float; triad {r['stream_triad_gbytes_per_s']:.1f} GB/s; "
              f"stencilc: median of {r['stencilc_repeats']} timed steps per variant; "
              + "; ".join(describe(name, r[name]) for name in peers))
        ratios = "".join(f" {'vs ' + PEERS[name]:>9}" for name in peers)
        print(f"  {'':33} {'variant':22} {'tiles':>9} {'GPts/s':>8}{ratios}")
        for label, key, ratio in (("stencilc, best single sweep", "stencilc_best_single_sweep",
                                   "ratio_single_sweep_to"),
                                  ("stencilc, best incl. time-tiled", "stencilc_best",
                                   "ratio_best_to")):
            b = r[key]
            cells = "".join(f" {r[f'{ratio}_{name}']:8.2f}x" for name in peers)
            print(f"  {label:33} {b['name']:22} {tiles(b):>9} {b['gpts_per_s']:8.3f}{cells}")
        if "devito" in peers:
            d = r["devito"]
            # Older Devito reports (before --autotune) carry neither key.
            tuned = d.get("tuned") or {}
            shape = "x".join(str(v) for k, v in sorted(tuned.items()) if k.endswith("_size"))
            print(f"  {'Devito, own timer around apply':33} {'opt=advanced':22} "
                  f"{shape or 'default':>9} {d['gpts_per_s']:8.3f}")
            print(f"  {'Devito, its section timers':33} {'':22} {'':>9} "
                  f"{d['devito_reported_gpts_per_s']:8.3f}")
            if d.get("autotune", "off") != "off":
                print(f"  (Devito autotuned, level {d['autotune']}: {tuned}; stencilc bench --search)")
        if "yask" in peers:
            y = r["yask"]
            block = y.get("block") or {}
            shape = "x".join(str(block[a]) for a in ("x", "y", "z") if a in block)
            print(f"  {'YASK, median trial':33} {'iso3dfd ' + y['arch']:22} {shape or '-':>9} "
                  f"{y['gpts_per_s']:8.3f}")
            print(f"  {'YASK, best trial':33} {'':22} {'':>9} {y['best_gpts_per_s']:8.3f}")
            print(f"  (YASK's grid {y['yask_grid']} (its z is stencilc's x, unit stride); its "
                  f"block sizes x, y, z as its auto-tuner left them)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--command", required=True)
    ap.add_argument("reports", nargs="+")
    a = ap.parse_args()
    groups = []
    try:
        for path in a.reports:
            with open(path) as f:
                rep = json.load(f)
            name = peer_name(rep)
            if name is None:
                groups.append((rep, []))
            elif not groups:
                raise ValueError(f"{path}: a peer's report before any stencilc report")
            else:
                groups[-1][1].append((name, rep))
        rows = []
        for stencilc, peers in groups:
            if not peers:
                raise ValueError(f"stencilc's {stencilc['stencil']} report has no peer report "
                                 "after it: reports come in pairs (stencilc's JSON, then its peers')")
            # One table per grid: the peers that ran at the same grid share it.
            by_size = {}
            for name, p in peers:
                by_size.setdefault(tuple(p["size"]), []).append((name, p))
            rows += [row(stencilc, same) for same in by_size.values()]
    except (OSError, ValueError, KeyError) as e:
        sys.exit(f"report.py: {e}")
    report = {"machine": machine(), "command": a.command, "rows": rows}
    if a.json:
        print(json.dumps(report, indent=2))
    else:
        print_table(report)


if __name__ == "__main__":
    main()
