"""Chat and embedding models by spec (models/loader.py).

OpenMP threads sleep rather than spin while they wait (set before torch loads):
with spinning, two torch threads on a 2-core machine shared with one other busy
process decoded SmolLM2 at 0.8-2.6 tokens/s instead of about 17
(bench/README.md, "Embedded chat model").
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
