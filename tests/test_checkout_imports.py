"""Python started in the checkout imports the checkout's ``dominoproof/`` folder before
any installed copy; ``model/`` and ``proofs/`` stand beside it, not in it (pyproject's
package-dir maps them on install). The tutorial's first import must work there all the
same, whether dominoproof is installed or not (issue: a teacher's ``No module named
'dominoproof.model'`` after the README's first command)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_checkout_alone_provides_the_whole_package() -> None:
    # -S: no site-packages, so no installed (or editable) dominoproof can answer;
    # the checkout's root first on the path, as when Python starts there
    code = ("import sys; sys.path.insert(0, sys.argv[1]); "
            "import dominoproof.model, dominoproof.proofs.budgets; "
            "from dominoproof.model import find_variant; "
            "print(dominoproof.model.__file__); print(find_variant('tiny-2p-d3').players)")
    out = subprocess.run([sys.executable, "-S", "-c", code, str(ROOT)], cwd=ROOT,
                         capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    where, players = out.stdout.split()
    assert Path(where) == ROOT / "model" / "__init__.py"
    assert players == "2"
