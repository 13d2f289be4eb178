"""dominoproof: the rules of a domino round, above all how it ends blocked, made
executable, checkable and provable. See README.md and docs/ARCHITECTURE.md."""

__version__ = "0.1.0"
