#!/usr/bin/env python3
"""Regenerates the results tables of docs/PERFORMANCE.md from the JSON in docs/results/.

Every table of measured figures in the doc sits between two marker comments:

    <!-- results-table: KIND ARG... -->
    | ... the table, written by this script ... |
    <!-- end results-table -->

and is made from the JSON files its ARGs name (file stems under docs/results/), so a
number in a table always comes with its raw data. KINDs:

  cpu-machine PREFIX       one row per CPU results file whose name starts with PREFIX:
                           date, commit, CPU model, cores, ISA, caches, triad, load
  cpu-bench FILE           the `stencilc bench` runs of one file (bench/record-run.py):
                           a row per stencil, index and variant, a column per time steps
                           per pass, out of and in place (with --search: the tiles)
  cpu-peers FILE           the devito-peer.sh (or yask-peer.sh) run of one file: stencilc's
                           best rows, Devito's (and YASK's) figure and the ratios, same run
  cpu-times FILE           the bench harness's `time` runs of one file: a row per grid, a
                           column per configuration, a time or a ratio to another column
  cpu-tune FILE            the `stencilc tune` runs of one file: a row per stencil and grid,
                           the fastest found, the untuned defaults and their ratio
  gpu-runs                 one row per GPU results file: device, driver, date, triads
  gpu-generated FILE...    the generated variants, a row per stencil, type and index
                           (a row missing from the first file is taken from the next)
  gpu-hand STENCIL FILE    the hand-written peers of one stencil (and the file's gmem
                           row), a row per variant, a column per type and index
  gpu-compare VARIANT AFTER BEFORE...
                           VARIANT in the file AFTER against the files BEFORE (the first
                           that has the row), with AFTER's gmem beside it
  gpu-best FILE...         per stencil, type and index: the best generated and the best
                           hand-written variant over the files, by fraction of the triad
  gpu-model FILE           the GPU model's prediction beside each measured row
                           (bench/gpu/model-vs-measured.py): a row per stencil, type and
                           index, a column per variant, "predicted / measured"
  gpu-model-change VARIANT BEFORE AFTER
                           VARIANT's prediction in the model file AFTER beside BEFORE's,
                           where they differ, with the rate measured of BEFORE's kernel

  results-tables.py [--check] [--doc docs/PERFORMANCE.md] [--results docs/results]

Without --check it rewrites the doc in place; with --check it writes nothing and exits 1
with a diff when the doc's tables differ from what the JSON gives (ctest results-tables).
"""
import argparse
import difflib
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
BEGIN = re.compile(r"^<!-- results-table: (.+?) -->$")
END = "<!-- end results-table -->"


class Error(Exception):
    pass


def load(results, stem):
    path = results / f"{stem}.json"
    if not path.is_file():
        raise Error(f"{path}: no such results file")
    return json.loads(path.read_text())


def md(header, rows, numeric_from):
    """A Markdown table; columns from numeric_from on are right-aligned."""
    out = ["| " + " | ".join(header) + " |",
           "| " + " | ".join(["---"] * numeric_from + ["---:"] * (len(header) - numeric_from)) + " |"]
    out += ["| " + " | ".join(cells) + " |" for cells in rows]
    return out


def span(values, fmt="{:.1f}"):
    lo, hi = min(values), max(values)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else f"{fmt.format(lo)}-{fmt.format(hi)}"


def kib(n):
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 else f"{n // 1024} KiB"


def has_index(stencil):
    """Whether the example declares an index field (else the bench's --index means nothing)."""
    src = ROOT / "dsl-examples" / f"{stencil}.stencil"
    return src.is_file() and re.search(r":\s*index\b", src.read_text()) is not None


# --- CPU -----------------------------------------------------------------------------------

def bench_runs(doc):
    return [r for r in doc["runs"] if "bench" in r]


def peer_runs(doc):
    return [r for r in doc["runs"] if "peers" in r]


def triads(doc):
    out = [r["bench"]["stream_triad_gbytes_per_s"] for r in bench_runs(doc)]
    for r in peer_runs(doc):
        out += [row["stream_triad_gbytes_per_s"] for row in r["peers"]["rows"]]
    return out


def cpu_machine(results, prefix):
    # Numbers in the names in numeric order: -2- before -10-.
    files = sorted((p.stem for p in results.glob(f"{prefix}*.json")),
                   key=lambda s: [int(w) if w.isdigit() else w for w in re.split(r"(\d+)", s)])
    if not files:
        raise Error(f"cpu-machine {prefix}: no results files")
    rows = []
    for stem in files:
        d = load(results, stem)
        m, c = d["machine"], d["machine"]["caches"]
        loads = [x for r in d["runs"] for x in (r["load_average_1min_before"],
                                                r["load_average_1min_after"])]
        rows.append([f"`{stem}`", d["date"], d.get("stencilc_commit") or d["commit"], m["cpu"], f"family {m['family']} model {m['model']}",
                     str(m["cores"]), " ".join(m["isa"]),
                     f"{kib(c['l1d_bytes'])} / {kib(c['l2_bytes'])} / {kib(c['l3_bytes'])}",
                     span(triads(d)) if triads(d) else "-", span(loads)])
    return md(["file", "date", "stencilc from", "CPU", "kind", "cores", "ISA", "L1d / L2 per core / L3",
               "triad GB/s", "load (1 min)"], rows, 5)


def split_name(name):
    """'naive/T2/in-place' -> ('naive', 2)."""
    parts = [p for p in name.split("/") if p != "in-place"]
    return parts[0], (int(parts[1][1:]) if len(parts) > 1 else 1)


def bench_grids(runs):
    """(run, bench report, size, rows) per grid of each run, in the order the rows come: a
    default `stencilc bench` run times two grids, each row carries its own `size` (older
    reports: the report's), and the triad and FMA peak are those measured with that grid."""
    for run in runs:
        b = run["bench"]
        sizes = []
        for v in b["variants"]:
            size = list(v.get("size", b["size"]))
            if size not in sizes:
                sizes.append(size)
        for size in sizes:
            grid = dict(b)
            for rs in b.get("row_sets", []):
                if list(rs["size"]) == size:
                    grid.update(stream_triad_gbytes_per_s=rs["stream_triad_gbytes_per_s"],
                                peak_gflops=rs["peak_gflops"])
            yield run, grid, size, [v for v in b["variants"]
                                    if list(v.get("size", b["size"])) == size]


def cpu_bench(results, stem):
    """A row per stencil, index and variant; a column per steps per pass, out of and in place."""
    d = load(results, stem)
    runs = bench_runs(d)
    depths = sorted({split_name(v["name"])[1] for r in runs for v in r["bench"]["variants"]})
    rows = []
    for run, b, size, variants in bench_grids(runs):
        by = {}
        for v in variants:
            variant, steps = split_name(v["name"])
            by.setdefault(variant, {})[(steps, v["in_place"])] = v

        def cell(v):
            if v is None:
                return "-"
            tiles = f" {v['block_y']}×{v['block_z']}" if "--search" in run["command"] and (
                v["block_y"] > 0 or v["block_z"] > 0) else ""
            rate = v["gpts_per_s"]
            rate = f"{rate:.3f}" if rate >= 0.01 else f"{rate:.2g}"
            return f"{rate} ({v['fraction_of_stream']:.2f}){tiles}"
        first = True
        for variant, cells in by.items():
            best = max(cells.values(), key=lambda v: v["gpts_per_s"])
            head = ["", "", ""]
            if first:
                index = b["index"] if has_index(b["stencil"]) else "none"
                head = [f"{b['stencil']} ({'×'.join(map(str, size))})", index,
                        f"{b['stream_triad_gbytes_per_s']:.1f}, {b['peak_gflops']:.0f} "
                        f"({run['load_average_1min_before']:.1f})"]
                first = False
            rows.append(head + [variant]
                        + [cell(cells.get((n, p))) for n in depths for p in (False, True)]
                        + [f"{best['fraction_of_roofline']:.2f} ({best['roofline_limit']})"])
    header = ["stencil (grid)", "index", "triad GB/s, FMA GFLOP/s (load)", "variant"]
    for n in depths:
        steps = "1 step" if n == 1 else f"T{n}"
        header += [f"{steps}, out of place", f"{steps}, in place"]
    header.append("best: of roofline (bound)")
    return md(header, rows, 4)


def cpu_peers(results, stem):
    """Devito's columns; YASK's too where the run has it (yask-peer.sh)."""
    d = load(results, stem)
    rows = []
    yask = any("yask" in r for run in peer_runs(d) for r in run["peers"]["rows"])
    for run in peer_runs(d):
        p = run["peers"]
        for r in p["rows"]:
            s, b, dv = r["stencilc_best_single_sweep"], r["stencilc_best"], r["devito"]
            row = [r["stencil"], "×".join(map(str, r["size"])),
                   f"{r['stream_triad_gbytes_per_s']:.1f}",
                   f"{s['name']} {s['gpts_per_s']:.3f}", f"{b['name']} {b['gpts_per_s']:.3f}",
                   f"{dv['gpts_per_s']:.3f} ({dv['devito_reported_gpts_per_s']:.3f})",
                   f"{r['ratio_single_sweep_to_devito']:.2f}×", f"{r['ratio_best_to_devito']:.2f}×"]
            if yask:
                y = r["yask"]
                row += [f"{y['gpts_per_s']:.3f} ({y['best_gpts_per_s']:.3f})",
                        f"{r['ratio_best_to_yask']:.2f}×"]
            rows.append(row + [_floor_fraction(r)])
    header = ["stencil", "grid", "triad GB/s", "stencilc best single sweep", "stencilc best",
              "Devito (its section timers)", "single / Devito", "best / Devito"]
    if yask:
        header += ["YASK median trial (best)", "best / YASK"]
    return md(header + ["best of triad floor"], rows, 2)


def cpu_times(results, stem):
    """The harness's `time` runs: one row per grid; a column's time in seconds a step, or, where
    it is against another column, that column's time over its own (above 1: faster)."""
    d = load(results, stem)
    rows, header = [], None
    several = len({run["times"]["stencil"] for run in d["runs"]}) > 1
    for run in d["runs"]:
        t = run["times"]
        cols = t["columns"]
        labels = ["stencil, grid (x first)" if several else "grid (x first)"] + [c["label"] for c in cols]
        if header is not None and labels != header:
            raise Error(f"cpu-times {stem}: the runs have different columns")
        header = labels
        cells = []
        for c in cols:
            if c["against"] is None:
                cells.append(f"{c['seconds']:.3g} s a step")
            else:
                cells.append(f"{cols[c['against']]['seconds'] / c['seconds']:.2f}×")
        grid = " × ".join(map(str, t["size"]))
        rows.append([f"{t['stencil']}, {grid}" if several else grid] + cells)
    return md(header, rows, 1)


def describe_tuned(e):
    """A tuning entry's choice, as `stencilc tune` prints it."""
    words = [e["variant"]]
    if e["block_x"] or e["block_y"] or e["block_z"]:
        words.append(f"tiles {e['block_x'] or 'x'} × {e['block_y'] or 'y'} × {e['block_z'] or 'z'}")
    if e["time_depth"] > 1:
        tiles = f"{e['time_tile_y'] or 'default'} × {e['time_tile_z'] or 'default'}"
        if e["time_tile_x"]:
            tiles = f"{e['time_tile_x']} × " + tiles
        words.append(f"{e['time_depth']} steps per pass, time tiles {tiles}")
    return ", ".join(words)


def cpu_tune(results, stem):
    """`stencilc tune` (bench/record-run.py --tune): a row per run."""
    d = load(results, stem)
    rows = []
    for run in d["runs"]:
        if "tune" not in run:
            continue
        e = run["tune"]
        rows.append([f"{e['stencil']} ({e['type']})", " × ".join(map(str, e["size"])),
                     describe_tuned(e), f"{e['gpts_per_s']:.3f}", f"{e['default_gpts_per_s']:.3f}",
                     f"{e['default_gpts_per_s'] / e['gpts_per_s']:.2f}×"])
    if not rows:
        raise Error(f"cpu-tune {stem}: no tune runs")
    return md(["stencil", "grid (x first)", "fastest found", "GPts/s", "defaults, GPts/s",
               "defaults / tuned"], rows, 3)


def _floor_fraction(r):
    """The best row's GPts/s against the triad floor: triad / compulsory bytes a point."""
    if not r.get("bytes_per_point"):
        return "-"
    return f'{r["stencilc_best"]["gpts_per_s"] * r["bytes_per_point"] / r["stream_triad_gbytes_per_s"]:.2f}'


# --- GPU -----------------------------------------------------------------------------------

def gcell(row):
    mark = "" if row["matches_reference"] else " WRONG"
    return f"{row['gpts_per_s']:.1f} ({row['fraction_of_triad']:.2f}){mark}"


def gpu_runs(results):
    rows = []
    for path in sorted(results.glob("gpu-*.json")):
        d = json.loads(path.read_text())
        t = d["triad_gb_per_s"]
        s = d.get("stream_3r1w_gb_per_s") or []
        rows.append([f"`{path.stem}`", d["device"], f"sm_{d['sm']}", d.get("driver") or "?", d["date"],
                     f"{min(t):.0f}-{max(t):.0f}", f"{min(s):.0f}-{max(s):.0f}" if s else "-",
                     str(len(d["rows"]))])
    return md(["file", "card", "arch", "driver", "date", "device triad GB/s",
               "3 reads + 1 write GB/s", "rows"], rows, 5)


def keyed(docs):
    """(stencil, type, index, variant) -> (row, stem), the first file that has it winning."""
    at = {}
    for stem, d in docs:
        for r in d["rows"]:
            at.setdefault((r["stencil"], r["type"], r["index"], r["variant"]), (r, stem))
    return at


def gpu_generated(results, stems):
    docs = [(s, load(results, s)) for s in stems]
    at = keyed(docs)
    variants, groups = [], {}
    for (stencil, type_, index, variant), (r, stem) in at.items():
        if variant.startswith("hand:"):
            continue
        if variant not in variants:
            variants.append(variant)
        groups.setdefault((stencil, type_, index), {})[variant] = (r, stem)
    rows = []
    for key in sorted(groups):
        by = groups[key]
        some = next(iter(by.values()))[0]
        stems_used = sorted({stem for _, stem in by.values()}, key=stems.index)
        rows.append(list(key) + [str(some["bytes_per_point"])]
                    + [gcell(by[v][0]) if v in by else "-" for v in variants]
                    + [", ".join(f"{stems.index(s) + 1}" for s in stems_used)])
    return md(["stencil", "type", "index", "B/pt"] + variants + ["file"], rows, 4)


def gpu_hand(results, stencil, stem):
    d = load(results, stem)
    keys, variants, at = [], [], {}
    for r in d["rows"]:
        if r["stencil"] != stencil or not (r["variant"].startswith("hand:") or r["variant"] == "gmem"):
            continue
        k = f"{r['type']} {r['index']}"
        if k not in keys:
            keys.append(k)
        if r["variant"] not in variants:
            variants.append(r["variant"])
        at[(k, r["variant"])] = r
    if not variants:
        raise Error(f"gpu-hand {stencil} {stem}: no such rows")
    variants.sort(key=lambda v: v.startswith("hand:"))
    rows = [[v] + [gcell(at[(k, v)]) if (k, v) in at else "-" for k in keys] for v in variants]
    return md(["variant"] + keys, rows, 1)


def gpu_compare(results, variant, after, befores):
    now = keyed([(after, load(results, after))])
    before = keyed([(s, load(results, s)) for s in befores])
    rows = []
    for key in sorted(k for k in now if k[3] == variant):
        stencil, type_, index, _ = key
        if key not in before:
            continue
        b, stem = before[key]
        a = now[key][0]
        gm = now.get((stencil, type_, index, "gmem"))
        rows.append([stencil, type_, index, gcell(b), f"{befores.index(stem) + 1}", gcell(a),
                     f"{a['gpts_per_s'] / b['gpts_per_s']:.2f}×", gcell(gm[0]) if gm else "-"])
    return md(["stencil", "type", "index", "before", "before: file", "after", "after / before",
               "gmem, same run as after"], rows, 3)


def gpu_best(results, stems):
    best = {}
    for stem in stems:
        for r in load(results, stem)["rows"]:
            if not r["matches_reference"]:
                continue
            side = "hand" if r["variant"].startswith("hand:") else "generated"
            key = (r["stencil"], r["type"], r["index"])
            cur = best.setdefault(key, {}).get(side)
            if cur is None or r["fraction_of_triad"] > cur[0]["fraction_of_triad"]:
                best[key][side] = (r, stem)
    rows = []
    for key in sorted(best):
        g, h = best[key].get("generated"), best[key].get("hand")

        def cell(x):
            return f"{x[0]['fraction_of_triad']:.2f} (`{x[0]['variant']}`, {stems.index(x[1]) + 1})" if x else "-"
        ratio = f"{g[0]['fraction_of_triad'] / h[0]['fraction_of_triad']:.2f}×" if g and h else "-"
        rows.append(list(key) + [cell(g), cell(h), ratio])
    return md(["stencil", "type", "index", "best generated (variant, file)",
               "best hand-written (variant, file)", "generated / hand-written"], rows, 3)


def gpu_model(results, stem):
    doc = load(results, stem)
    table = {}
    for r in doc["rows"]:
        table.setdefault((r["stencil"], r["type"], r["index"]), {})[r["variant"]] = r
    variants = ["gmem", "ro", "traditional", "planes"]
    rows = []
    for key in sorted(table):
        cells = []
        for v in variants:
            r = table[key].get(v)
            if not r:
                cells.append("-")
                continue
            ratio = r["predicted_gpts"] / r["measured_gpts"]
            mark = "" if abs(ratio - 1) <= 0.25 else " **"
            cells.append(f"{gnum(r['predicted_gpts'])} {r['bound']} / {gnum(r['measured_gpts'])} "
                         f"({ratio:.2f}×){mark}")
        rows.append(list(key) + cells)
    return md(["stencil", "type", "index"] + [f"{v}: predicted bound / measured" for v in variants],
              rows, 3)


def gpu_model_change(results, variant, before_stem, after_stem):
    def rows_of(stem):
        return {(r["stencil"], r["type"], r["index"], r["variant"]): r
                for r in load(results, stem)["rows"]}
    before, after = rows_of(before_stem), rows_of(after_stem)
    rows = []
    for key in sorted(after):
        if key[3] != variant or key not in before:
            continue
        b, a = before[key], after[key]
        if abs(a["predicted_gpts"] / b["predicted_gpts"] - 1) < 1e-9:
            continue
        gmem = after.get(key[:3] + ("gmem",))
        rows.append(list(key[:3]) + [
            f"{gnum(b['predicted_gpts'])} {b['bound']} ({b['registers']} registers)",
            f"{gnum(a['predicted_gpts'])} {a['bound']} ({a['registers']} registers)",
            f"{a['predicted_gpts'] / b['predicted_gpts']:.2f}×",
            gnum(b["measured_gpts"]),
            f"{gnum(gmem['predicted_gpts'])} / {gnum(gmem['measured_gpts'])}" if gmem else "-"])
    if not rows:
        raise Error(f"gpu-model-change {variant}: the files predict the same for every row")
    return md(["stencil", "type", "index", "before: predicted", "after: predicted",
               "after / before", "measured, before", "gmem: predicted / measured"], rows, 3)


def gnum(x):
    return f"{x:.1f}" if x >= 10 else f"{x:.2g}"


def make(results, spec):
    words = spec.split()
    kind, args = words[0], words[1:]
    try:
        if kind == "cpu-machine" and len(args) == 1:
            return cpu_machine(results, args[0])
        if kind == "cpu-bench" and len(args) == 1:
            return cpu_bench(results, args[0])
        if kind == "cpu-peers" and len(args) == 1:
            return cpu_peers(results, args[0])
        if kind == "cpu-times" and len(args) == 1:
            return cpu_times(results, args[0])
        if kind == "cpu-tune" and len(args) == 1:
            return cpu_tune(results, args[0])
        if kind == "gpu-runs" and not args:
            return gpu_runs(results)
        if kind == "gpu-generated" and args:
            return gpu_generated(results, args)
        if kind == "gpu-hand" and len(args) == 2:
            return gpu_hand(results, *args)
        if kind == "gpu-compare" and len(args) >= 3:
            return gpu_compare(results, args[0], args[1], args[2:])
        if kind == "gpu-best" and args:
            return gpu_best(results, args)
        if kind == "gpu-model" and len(args) == 1:
            return gpu_model(results, args[0])
        if kind == "gpu-model-change" and len(args) == 3:
            return gpu_model_change(results, *args)
    except KeyError as e:
        raise Error(f"results-table {spec}: the JSON lacks {e}")
    raise Error(f"results-table {spec}: unknown kind or wrong arguments (see the script's help)")


def regenerate(text, results):
    out, lines, i, tables = [], text.split("\n"), 0, 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        end = i
        while end < len(lines) and lines[end] != END:
            if BEGIN.match(lines[end]):
                raise Error(f"line {end + 1}: a results-table inside another (no '{END}' before it)")
            end += 1
        if end == len(lines):
            raise Error(f"line {i}: '{m.group(0)}' has no '{END}'")
        out += make(results, m.group(1))
        out.append(END)
        tables += 1
        i = end + 1
    return "\n".join(out), tables


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="write nothing; exit 1 with a diff if stale")
    ap.add_argument("--doc", default=str(ROOT / "docs/PERFORMANCE.md"))
    ap.add_argument("--results", default=str(ROOT / "docs/results"))
    a = ap.parse_args()
    doc, results = pathlib.Path(a.doc), pathlib.Path(a.results)
    text = doc.read_text(encoding="utf-8")
    try:
        new, tables = regenerate(text, results)
    except Error as e:
        sys.exit(f"results-tables: {doc}: {e}")
    if tables == 0:
        sys.exit(f"results-tables: {doc}: no results-table markers")
    if new == text:
        print(f"results-tables: {doc}: {tables} tables match docs/results")
        return
    if a.check:
        sys.stdout.writelines(difflib.unified_diff(
            text.splitlines(True), new.splitlines(True), str(doc), "regenerated from the JSON"))
        sys.exit(f"results-tables: {doc}: tables differ from the JSON; run scripts/results-tables.py")
    doc.write_text(new, encoding="utf-8")
    print(f"results-tables: {doc}: {tables} tables regenerated")


if __name__ == "__main__":
    main()
