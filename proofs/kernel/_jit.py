"""numba, when it is installed: ``njit`` compiles (cached across runs), else it is the
identity and the kernel's functions are plain Python.

Nothing runs the kernel as plain Python in use -- it would be far slower than the
engine's own rule book -- so every caller asks :func:`~dominoproof.proofs.kernel.available`
first and takes the Python path when it says no. The identity decorator only lets the
modules import (and mypy read them) on an installation without the ``kernel`` extra.

This is the one module that imports numba, the optional dependency (at import, where it
is installed: the decorators compile as the kernel's modules load); every compiled
module imports it, and nothing outside the kernel imports a compiled module before it
knows the kernel runs.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from . import numba_installed

F = TypeVar("F", bound=Callable[..., Any])


def cache_dir(numba_version: str) -> str:
    """Where the kernel's machine code is cached: one folder per content of the kernel's
    sources (and numba's version), under the user's cache.

    numba checks a cached function against its own source file only, so a function that
    calls into another kernel module would keep stale machine code when only that module
    changed. Keyed by every kernel source at once, an edit anywhere in the kernel starts
    from an empty folder, and nothing is written next to the sources. ``NUMBA_CACHE_DIR``,
    when the user sets it, is numba's own and wins."""
    digest = hashlib.sha256(numba_version.encode())
    for f in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return os.path.join(base, "dominoproof", f"kernel-{digest.hexdigest()[:16]}")


if numba_installed():  # pragma: no branch - the test environment has the extra
    import numba

    _config: Any = numba.config  # a module of settings numba reads at decoration time
    if not _config.CACHE_DIR:  # the user's NUMBA_CACHE_DIR wins
        _config.CACHE_DIR = cache_dir(numba.__version__)

    #: numba's options for every kernel function. ``_nrt=False``: no reference counting
    #: of arrays. The kernel allocates nothing (every array is made by its Python caller
    #: and outlives the call), so numba's runtime has nothing to free, and counting
    #: references -- an atomic increment and decrement around every array passed or
    #: viewed -- cost the most of all (docs/KERNEL.md, "Where a state's time goes"). A
    #: kernel function that allocated would not compile ("NRT required but not
    #: enabled"), so the rule holds itself.
    _OPTIONS: dict[str, Any] = {"cache": True, "nogil": True,
                                "error_model": "numpy",  # no zero checks
                                "_nrt": False}

    def njit(fn: F) -> F:
        """``numba.njit(cache=True)``: compiled on first call, the machine code cached on
        disk (:func:`cache_dir`, or ``NUMBA_CACHE_DIR``) for the next runs."""
        return cast(F, numba.njit(**_OPTIONS)(fn))

    def njit_inline(fn: F) -> F:
        """:func:`njit`, and inlined into its compiled callers by numba itself (no call,
        no arrays passed): for the small steps called most often (the random number
        generator, a state's key)."""
        return cast(F, numba.njit(inline="always", **_OPTIONS)(fn))
else:  # pragma: no cover - exercised by the tests that hide numba
    def njit(fn: F) -> F:
        return fn

    njit_inline = njit

