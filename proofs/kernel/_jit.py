"""numba, when it is installed: ``njit`` compiles (cached across runs), else it is the
identity and the kernel's functions are plain Python.

Nothing runs the kernel as plain Python in use -- it would be far slower than the
engine's own rule book -- so every caller asks :func:`available` first and takes the
Python path when it says no. The identity decorator only lets the modules import (and
mypy read them) on an installation without the ``kernel`` extra.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

#: set to "0" (or "no", "off", "false") to run the Python path even where numba is installed
ENV = "DOMINOPROOF_KERNEL"

_HAVE_NUMBA = importlib.util.find_spec("numba") is not None

if _HAVE_NUMBA:  # pragma: no branch - the test environment has the extra
    import numba

    def njit(fn: F) -> F:
        """``numba.njit(cache=True)``: compiled on first call, the machine code cached on
        disk (next to the module, or in ``NUMBA_CACHE_DIR``) for the next runs."""
        jit = numba.njit(cache=True, nogil=True, error_model="numpy")  # no zero checks
        return cast(F, jit(fn))

    def njit_inline(fn: F) -> F:
        """:func:`njit`, and inlined into its compiled callers by numba itself (no call,
        no arrays passed): for the few big steps the search calls once per state."""
        jit = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
        return cast(F, jit(fn))

    NUMBA_VERSION: str = numba.__version__
else:  # pragma: no cover - exercised by the tests that hide numba
    def njit(fn: F) -> F:
        return fn

    njit_inline = njit

    NUMBA_VERSION = ""


def disabled_by_env() -> bool:
    """The user turned the kernel off (``DOMINOPROOF_KERNEL=0``)."""
    return os.environ.get(ENV, "").strip().lower() in ("0", "no", "off", "false")


def numba_installed() -> bool:
    return _HAVE_NUMBA
