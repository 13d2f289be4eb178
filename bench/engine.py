#!/usr/bin/env python3
"""The engine speed benchmark: ``python bench/engine.py [OPTIONS]`` is
``dominoproof bench engine [OPTIONS]`` (see bench/README.md)."""

from __future__ import annotations

import sys

from dominoproof.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", "engine", *sys.argv[1:]]))
