"""mkdocs hooks of the documentation site (``mkdocs.yml``: ``hooks``).

``on_files`` adds every page and picture that ``scripts/docs_pages.py`` writes, in
memory, to the pages of ``docs/``: the generated pages are made at every build and
never committed, so none can go stale. A generated page may not shadow a file of
``docs/`` (the build stops, naming it).
"""

from __future__ import annotations

from typing import Any

import docs_pages  # scripts/ is on the path while mkdocs loads this hook
from mkdocs.structure.files import File, Files


def on_files(files: Files, config: Any) -> Files:
    for site_path, content in docs_pages.pages().items():
        if files.get_file_from_path(site_path) is not None:
            raise SystemExit(f"docs/{site_path} exists, but the site generates {site_path}: "
                             "remove the file (generated pages are never committed)")
        files.append(File.generated(config, site_path, content=content))
    return files
