#!/usr/bin/env python3
"""check_figures.py FIGURES NAME... - each FIGURES/NAME.png is a real figure.

Exit 0 when every named PNG reads back (matplotlib), is at least 400 x 300
pixels and is not blank: its pixels take at least 50 distinct colours, as a
labelled plot with a colour bar does. Used by ctest after scripts/plot.py.
"""
import os
import sys

import matplotlib.image
import numpy as np

failures = 0
figures, names = sys.argv[1], sys.argv[2:]
if not names:
    sys.exit("usage: check_figures.py FIGURES NAME...")
for name in names:
    path = os.path.join(figures, name + ".png")
    try:
        pixels = matplotlib.image.imread(path)
    except (OSError, ValueError, SyntaxError) as e:
        print("check_figures: %s: %s" % (path, e))
        failures += 1
        continue
    height, width = pixels.shape[:2]
    colours = len(np.unique(pixels.reshape(height * width, -1), axis=0))
    ok = width >= 400 and height >= 300 and colours >= 50
    print("check_figures: %s: %d x %d pixels, %d colours%s"
          % (path, width, height, colours, "" if ok else "  FAIL"))
    failures += not ok
sys.exit(1 if failures else 0)
