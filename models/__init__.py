"""Chat and embedding models by spec (models/loader.py).

OpenMP threads (FAISS's) sleep rather than spin while they wait, set before any loads:
spinning threads on a 2-core machine shared with another busy process once slowed the
embedded chat model from about 17 tokens/s to 0.8-2.6 (when it ran on torch).
"""

import os

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
