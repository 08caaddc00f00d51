#!/usr/bin/env python3
"""The GPU benchmark's results: one JSON per run, and the table made from it.

    results.py merge PARTS_DIR -o RUN.json [--driver VERSION]
        joins the JSON files gpu-bench wrote (one per program and index fill)
        into one document: the device, the run's conditions and every row
        (stencil, type, index, variant, gpts_per_s, fraction_of_triad, ...).
    results.py table RUN.json [--markdown] [--rows generated|hand|all] [--by-variant]
        prints its rows, one per stencil, type and index, a column per variant:
        the generated variants (and twostep), the hand-written peers
        (bench/gpu/reference, "hand:NAME"), or both (the default); with
        --by-variant a row per variant and a column per stencil, type and index.

docs/results/ keeps the documents of device runs; the tables in the docs are
made from them with `table --markdown`.
"""
import argparse
import datetime
import json
import pathlib
import sys

RUN_KEYS = ("size", "nd", "repeats", "steps", "block_x", "block_y", "nw", "rows")


def merge(parts_dir, output, driver):
    parts = sorted(pathlib.Path(parts_dir).glob("*.json"))
    if not parts:
        sys.exit(f"results.py: no JSON files in {parts_dir}")
    documents = [json.loads(p.read_text()) for p in parts]
    first = documents[0]
    run = {
        "device": first["device"],
        "sm": first["sm"],
        "driver": driver,
        "date": datetime.date.today().isoformat(),
        "triad_gb_per_s": [d["triad_gb_per_s"] for d in documents],
        "stream_3r1w_gb_per_s": [d["stream_3r1w_gb_per_s"] for d in documents
                                 if "stream_3r1w_gb_per_s" in d],
        "programs": [],
        "rows": [],
    }
    for d in documents:
        run["programs"].append({k: d[k] for k in RUN_KEYS if k in d})
        for row in d["rows"]:
            row = dict(row)
            row["triad_gb_per_s"] = d["triad_gb_per_s"]
            row["bytes_per_point"] = d["bytes_per_point"]
            row["flops_per_point"] = d["flops_per_point"]
            row["size"] = d["size"]
            run["rows"].append(row)
    pathlib.Path(output).write_text(json.dumps(run, indent=1) + "\n")


def cell(row):
    mark = "" if row["matches_reference"] else " WRONG"
    return f"{row['gpts_per_s']:.1f} ({row['fraction_of_triad']:.2f}){mark}"


def print_rows(header, rows, markdown, first_columns):
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("| " + " | ".join(["---"] * first_columns
                                + ["---:"] * (len(header) - first_columns)) + " |")
        for cells in rows:
            print("| " + " | ".join(cells) + " |")
        return
    for cells in [header] + rows:
        print(" ".join(f"{c:>20}" if i >= first_columns else f"{c:<13}"
                       for i, c in enumerate(cells)))


def table_by_variant(run, markdown):
    keys, variants = [], []
    for row in run["rows"]:
        key = f"{row['stencil']} {row['type']} {row['index']}"
        if key not in keys:
            keys.append(key)
        if row["variant"] not in variants:
            variants.append(row["variant"])
    at = {(f"{r['stencil']} {r['type']} {r['index']}", r["variant"]): r for r in run["rows"]}
    rows = [[v] + [cell(at[(k, v)]) if (k, v) in at else "-" for k in keys] for v in variants]
    print_rows(["variant"] + keys, rows, markdown, 1)


def table(path, markdown, which="all", by_variant=False):
    run = json.loads(pathlib.Path(path).read_text())
    rows_wanted = {
        "all": lambda v: True,
        "generated": lambda v: not v.startswith("hand:"),
        "hand": lambda v: v.startswith("hand:"),
    }[which]
    run["rows"] = [r for r in run["rows"] if rows_wanted(r["variant"])]
    if by_variant:
        print_heading(run)
        table_by_variant(run, markdown)
        return
    variants = []
    for row in run["rows"]:
        if row["variant"] not in variants:
            variants.append(row["variant"])
    # The generated variants first, then the hand-written peers.
    variants.sort(key=lambda v: v.startswith("hand:"))
    groups = {}
    for row in run["rows"]:
        key = (row["stencil"], row["type"], row["index"])
        groups.setdefault(key, {})[row["variant"]] = row
    print_heading(run)
    header = ["stencil", "type", "index", "B/pt"] + variants
    rows = []
    for (stencil, type_, index), by_name in sorted(groups.items()):
        some = next(iter(by_name.values()))
        rows.append([stencil, type_, index, str(some["bytes_per_point"])]
                    + [cell(by_name[v]) if v in by_name else "-" for v in variants])
    print_rows(header, rows, markdown, 4)


def print_heading(run):
    triads = run["triad_gb_per_s"]
    streams = run.get("stream_3r1w_gb_per_s", [])
    print(f"{run['device']} (sm_{run['sm']}), driver {run.get('driver') or '?'}, {run['date']}; "
          f"device triad {min(triads):.0f}-{max(triads):.0f} GB/s"
          + (f" (3 reads, 1 write: {min(streams):.0f}-{max(streams):.0f})" if streams else "")
          + "; GPts/s (fraction of the triad floor)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("merge")
    m.add_argument("parts")
    m.add_argument("-o", "--output", required=True)
    m.add_argument("--driver", default="")
    t = sub.add_parser("table")
    t.add_argument("run")
    t.add_argument("--markdown", action="store_true")
    t.add_argument("--rows", choices=("generated", "hand", "all"), default="all")
    t.add_argument("--by-variant", action="store_true")
    args = parser.parse_args()
    if args.command == "merge":
        merge(args.parts, args.output, args.driver)
    else:
        table(args.run, args.markdown, args.rows, args.by_variant)


if __name__ == "__main__":
    main()
