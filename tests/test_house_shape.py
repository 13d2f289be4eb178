"""The house's shape, held on every change (docs/ARCHITECTURE.md): no module over 600
lines; no class more than two project classes deep (composition instead: an encoding
*has* a vocabulary, a proof layer *has* its session), an exception's taxonomy aside;
``model/`` imports nothing of the proofs or the app; an import inside a function says
why in a comment (an optional dependency, or a large one loaded late).

Each check is also run on a small house built wrong, and must find what is wrong there.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the installed package of each top-level folder (setuptools' package-dir)
FOLDERS = {"dominoproof": "dominoproof", "model": "dominoproof.model",
           "proofs": "dominoproof.proofs"}
LIMIT = 600


def package_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the package: its dotted name -> its file."""
    out = {}
    for folder, pkg in FOLDERS.items():
        for f in sorted((root / folder).rglob("*.py")):
            parts = [p for p in f.relative_to(root / folder).with_suffix("").parts
                     if p != "__init__"]
            out[".".join([pkg, *parts])] = f
    return out


def long_modules(files: dict[str, Path]) -> list[str]:
    return [f"{name}: {n} lines" for name, f in files.items()
            if (n := len(f.read_text().splitlines())) > LIMIT]


def deep_chains(classes: list[type], prefix: str) -> list[str]:
    """Classes whose method resolution order holds more than two classes of ``prefix``'s
    modules; exceptions are exempt (``except IllegalMoveError`` must catch a false
    declaration: the taxonomy is what their callers read)."""
    out = []
    for c in classes:
        own = [k for k in c.__mro__ if k.__module__.startswith(prefix)]
        if len(own) > 2 and not issubclass(c, BaseException):
            out.append(" -> ".join(f"{k.__module__}.{k.__qualname__}" for k in own))
    return out


def model_imports_outside(files: dict[str, Path]) -> list[str]:
    """Imports in ``dominoproof.model`` of anything of the package outside it."""
    out = []
    for name, f in files.items():
        if not name.startswith("dominoproof.model"):
            continue
        # the levels a relative import may climb and stay in the model
        depth = name.count(".") - (f.name != "__init__.py")
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                outside = (node.level > depth if node.level
                           else mod.startswith("dominoproof.")
                           and not mod.startswith("dominoproof.model"))
                if outside:
                    out.append(f"{name}:{node.lineno} imports {'.' * node.level}{mod}")
            elif isinstance(node, ast.Import):
                out += [f"{name}:{node.lineno} imports {a.name}" for a in node.names
                        if a.name.startswith("dominoproof.")
                        and not a.name.startswith("dominoproof.model")]
    return out


def unexplained_inner_imports(files: dict[str, Path]) -> list[str]:
    """Imports inside a function without a comment saying why, on the line above or at the
    end of the import's line."""
    out = []
    for name, f in files.items():
        lines = f.read_text().splitlines()
        for fn in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                    if not above.startswith("#") and "  #" not in lines[node.lineno - 1]:
                        out.append(f"{name}:{node.lineno}")
    return out


def project_classes() -> list[type]:
    out = []
    for name in package_files():
        module = importlib.import_module(name)
        out += [c for _, c in inspect.getmembers(module, inspect.isclass)
                if c.__module__ == name]
    return out


def test_no_module_is_over_600_lines() -> None:
    assert long_modules(package_files()) == []


def test_no_class_is_more_than_two_project_classes_deep() -> None:
    classes = project_classes()
    assert len(classes) > 100  # every module was read
    assert deep_chains(classes, "dominoproof") == []


def test_the_specification_imports_nothing_of_the_proofs_or_the_app() -> None:
    assert model_imports_outside(package_files()) == []


def test_every_import_inside_a_function_says_why() -> None:
    assert unexplained_inner_imports(package_files()) == []


def test_each_check_finds_a_house_built_wrong(tmp_path: Path) -> None:
    for folder in FOLDERS:
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "proofs" / "big.py").write_text("x = 1\n" * (LIMIT + 1))
    (tmp_path / "model" / "spec.py").write_text(
        "from ..proofs import big\nfrom dominoproof.proofs.z3 import encoding\n"
        "from . import state\n")
    (tmp_path / "dominoproof" / "cli.py").write_text(
        "def main():\n    import json\n    # numba (optional)\n    import numba\n"
        "    import dask  # optional: the cluster extra\n")
    files = package_files(tmp_path)
    assert long_modules(files) == ["dominoproof.proofs.big: 601 lines"]
    assert model_imports_outside(files) == [
        "dominoproof.model.spec:1 imports ..proofs",
        "dominoproof.model.spec:2 imports dominoproof.proofs.z3"]
    assert unexplained_inner_imports(files) == ["dominoproof.cli:2"]

    class Base:
        pass

    class Middle(Base):
        pass

    class Leaf(Middle):
        pass

    class Failure(Exception):
        pass

    class Illegal(Failure):
        pass

    class False_(Illegal):
        pass

    assert deep_chains([Base, Middle, Leaf, False_], __name__) == [
        " -> ".join(f"{__name__}.{c.__qualname__}" for c in (Leaf, Middle, Base))]
