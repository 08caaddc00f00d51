#!/usr/bin/env python3
"""transpose_volumes.py RUN_DIR - rewrite a run's model.npy and image.npy as
(nx, ny, nz) and mark geometry.json "volume_axes": "xyz", so that ctest can
check scripts/plot.py reads volumes in either order."""
import json
import os
import sys

import numpy as np

run = sys.argv[1]
for name in ("model.npy", "image.npy"):
    path = os.path.join(run, name)
    np.save(path, np.ascontiguousarray(np.load(path).transpose(2, 1, 0)))
path = os.path.join(run, "geometry.json")
with open(path) as f:
    g = json.load(f)
g["volume_axes"] = "xyz"
with open(path, "w") as f:
    json.dump(g, f, indent=2)
