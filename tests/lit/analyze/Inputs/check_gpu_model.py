"""Checks `stencilc analyze --machine h200 --json` of acoustic_iso8 (float) against the first
device run (docs/results/gpu-h200-2026-11-28-1-all.json): every CUDA variant carries the GPU
model's fields, the model ranks the four variants as the run measured them (a tie in the model
only where the run measured them within 1 %), and gmem is not bound by DRAM."""
import json
import sys

report = json.load(open(sys.argv[1]))[0]
run = json.load(open(sys.argv[2]))
measured = {r["variant"]: r["gpts_per_s"] for r in run["rows"]
            if r["stencil"] == "acoustic_iso8" and r["type"] == "float"}
fields = ("bound", "predicted_gpts", "dram_bytes_per_point", "l2_bytes_per_point",
          "shared_wavefronts_per_point", "occupancy")
predicted = {}
for v in report["variants"]:
    missing = [f for f in fields if f not in v]
    if missing:
        sys.exit(f"variant {v['name']}: no {', '.join(missing)}")
    predicted[v["name"]] = v["predicted_gpts"]
    if v["name"] == "gmem" and v["bound"] == "dram":
        sys.exit("gmem is bound by DRAM in the model; the run put it at half the DRAM floor")
names = sorted(predicted)
for a in names:
    for b in names:
        ma, mb = measured[a], measured[b]
        pa, pb = predicted[a], predicted[b]
        if ma > mb * 1.01 and not pa > pb * (1 + 1e-9) and not (abs(pa - pb) <= 1e-9 * pb and ma <= mb * 1.01):
            sys.exit(f"measured {a} {ma:.1f} > {b} {mb:.1f} GPts/s, predicted {pa:.1f} and {pb:.1f}")
order = sorted(names, key=lambda n: -predicted[n])
print("order", " ".join(order))
print("chosen", report["chosen_variant"])
