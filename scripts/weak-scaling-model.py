#!/usr/bin/env python3
"""weak-scaling-model.py - When does a distributed step hide its halo exchange?

Per rank of n^3 points: shell T_s = (n^3 - (n-2r)^3)/R, interior
T_i = (n-2r)^3/R, exchange T_x = m L + B/W with B the bytes a rank sends per
step (faces r n^2, edges r^2 n, corners r^3 per message, times the element
size and the exchanged levels). A step takes T_s + max(T_i, T_x); every rank
with neighbours on all sides has the same m and B at any rank count, so the
efficiency per step holds for weak scaling to any number of nodes
(docs/DISTRIBUTED.md). R is --rate, or the roofline bound `stencilc analyze
--machine M --json` gives for the best variant.

  scripts/weak-scaling-model.py dsl-examples/acoustic_iso8.stencil --rate 1.16
  scripts/weak-scaling-model.py dsl-examples/ete73.stencil --edges --machine h100
"""
import argparse
import json
import os
import subprocess
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("stencil")
parser.add_argument("--stencilc", default=os.path.join(root, "build/compiler/stencilc"))
parser.add_argument("--rate", type=float, help="points per second per rank, in G")
parser.add_argument("--machine", help="machine file for the roofline rate instead of --rate")
parser.add_argument("--halo", type=int, default=4, help="cells exchanged per side (the reach)")
parser.add_argument("--edges", action="store_true", help="the stencil reaches edge neighbours")
parser.add_argument("--corners", action="store_true", help="... and corner neighbours")
parser.add_argument("--levels", type=int, default=1, help="levels exchanged per step")
parser.add_argument("--bandwidth", type=float, default=12.5, help="GB/s per rank (default 12.5)")
parser.add_argument("--latency", type=float, default=2.0, help="microseconds per message")
args = parser.parse_args()

command = [args.stencilc, "analyze", args.stencil, "--json"]
if args.machine:
    command += ["--machine", args.machine]
report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)[0]
element = 4 if report["type"] == "float" else 8
if args.rate:
    rate = args.rate * 1e9
elif args.machine:
    rate = max(v["bound_gpts_per_s"] for v in report["variants"]) * 1e9
else:
    sys.exit("weak-scaling-model.py: give --rate or --machine")

r = args.halo
messages = 6 + (12 if args.edges else 0) + (8 if args.corners else 0)
print(f"{report['stencil']}: {report['flops_per_point']} flop and {report['bytes_per_point']} B per "
      f"point (stencilc analyze), R = {rate / 1e9:.2f} GPts/s, halo {r}, {messages} messages, "
      f"W = {args.bandwidth} GB/s, L = {args.latency} us")
print("| n | bytes sent/step | T_x (us) | T_interior (us) | T_shell (us) | efficiency |")
print("| ---: | ---: | ---: | ---: | ---: | ---: |")
hidden = None
for n in (32, 48, 64, 96, 128, 192, 256, 384, 512):
    cells = 6 * r * n * n + (12 * r * r * n if args.edges else 0) + (8 * r**3 if args.corners else 0)
    sent = cells * element * args.levels
    t_x = messages * args.latency * 1e-6 + sent / (args.bandwidth * 1e9)
    t_i = (n - 2 * r) ** 3 / rate
    t_s = (n**3 - (n - 2 * r) ** 3) / rate
    efficiency = (n**3 / rate) / (t_s + max(t_i, t_x))
    if hidden is None and t_i >= t_x:
        hidden = n
    print(f"| {n} | {sent / 1e6:.2f} MB | {t_x * 1e6:.1f} | {t_i * 1e6:.1f} | {t_s * 1e6:.1f} | "
          f"{efficiency:.2f} |")
print(f"the exchange hides behind the interior from n = {hidden} on (of the sizes above)"
      if hidden else "the exchange never hides at these sizes")
