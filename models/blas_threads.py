"""One BLAS thread while decoding: numpy's OpenBLAS threads spin between the many tiny products of a token.

Measured on a 2-core machine shared with other work, decoding SmolLM2 took 446 ms of
CPU a token on two OpenBLAS threads and 49 ms on one. The prompt, one large product
per weight, keeps every thread. Where numpy's BLAS is not its bundled OpenBLAS
(Accelerate on macOS, a distro build), this does nothing.
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import numpy as np


@lru_cache(maxsize=1)
def _openblas() -> tuple | None:
    """The (get, set) thread-count functions of numpy's bundled OpenBLAS, or None."""
    base = os.path.dirname(np.__file__)
    for path in glob.glob(f"{base}.libs/*openblas*") + glob.glob(f"{base}/.dylibs/*openblas*"):
        try:
            lib = ctypes.CDLL(path)
            return lib.scipy_openblas_get_num_threads64_, lib.scipy_openblas_set_num_threads64_
        except (OSError, AttributeError):
            continue
    return None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with numpy's OpenBLAS on one thread, then restore its count."""
    funcs = _openblas()
    if funcs is None:
        yield
        return
    get, set_ = funcs
    before = get()
    set_(1)
    try:
        yield
    finally:
        set_(before)
