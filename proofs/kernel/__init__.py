"""The compiled kernel: one more reading of the rules, for speed (numba, a dependency).

The rules' specification stays the Python rule book (``model/spec.py``). The kernel
states the variant's constants from its parameters itself, reads the slot data as a
table of integers (:mod:`.tables`) and runs compiled by numba. ``docs/ARCHITECTURE.md``
lists its modules, ``docs/KERNEL.md`` explains them.

This package's own module loads no numba: asking whether the kernel runs
(:func:`available`, :func:`reason`) is cheap, and numba is loaded with the first
compiled module imported (:mod:`._jit`).

Where numba is not installed (or ``DOMINOPROOF_KERNEL=0``), :func:`available` is False
and every caller runs the Python path, and says so (:func:`status`). numba is a dependency
of the default install (pip alone installs it); an installation without it, or with the
kernel turned off, gets the same answers from the Python path, slower.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os

from dominoproof.model.variant import Variant

from .tables import unsupported

__all__ = ["ENV", "available", "numba_installed", "reason", "status"]

INSTALL = "pip install numba"
#: set to "0" (or "no", "off", "false") to run the Python path even where numba is installed
ENV = "DOMINOPROOF_KERNEL"

_HAVE_NUMBA = importlib.util.find_spec("numba") is not None


def numba_installed() -> bool:
    return _HAVE_NUMBA


def disabled_by_env() -> bool:
    """The user turned the kernel off (``DOMINOPROOF_KERNEL=0``)."""
    return os.environ.get(ENV, "").strip().lower() in ("0", "no", "off", "false")


def available() -> bool:
    """numba is installed and the kernel is not turned off."""
    return numba_installed() and not disabled_by_env()


def status() -> str:
    """One line saying which path runs, for outputs and benchmarks."""
    if disabled_by_env():
        return f"kernel: off ({ENV}=0): the Python path runs, slower"
    if not numba_installed():
        return ("kernel: numba, a dependency, is not installed here: the Python path runs, "
                f"slower ({INSTALL})")
    version = importlib.metadata.version("numba")
    return f"kernel: compiled by numba {version} (machine code cached across runs)"


def reason(variant: Variant) -> str:
    """Why the kernel does not run ``variant`` (``""``: it does)."""
    if not available():
        return status()
    why = unsupported(variant)
    return f"kernel: cannot read {why}: the Python path runs" if why else ""
