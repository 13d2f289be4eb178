"""dominoproof: the rules of a domino round, above all how it ends blocked, made
executable, checkable and provable. See README.md and docs/ARCHITECTURE.md."""

from pathlib import Path

__version__ = "0.1.0"

# In a checkout, model/, proofs/ and bench/ stand beside this folder, not in it: an
# install maps them into the package (pyproject.toml's package-dir). Python started in
# the checkout's root imports this folder before any installed copy, so the package's
# path lists the checkout's root too, and ``dominoproof.model`` is the checkout's model/
# (without it, ``import dominoproof.model`` fails there, as a teacher running the
# tutorial from the checkout found). An installed package has no such neighbours.
_root = Path(__file__).resolve().parent.parent
if (_root / "pyproject.toml").is_file() and (_root / "model" / "spec.py").is_file():
    __path__.append(str(_root))
