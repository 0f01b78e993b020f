"""One name for the code being served: the same on every host that runs the same code.

The public pages' and the table page's ETags include ``RELEASE``, so that a browser's cached
page is not kept (304) across a deployment. It is a digest of the contents of everything a
page is made from: the project's Python packages, templates, compiled translations and
static files, worked out once at import. Not file modification times: those differ from host
to host (a fresh checkout, a copied image) for the same code. A deployment that knows its own
version (a git commit, an image tag) may set the environment variable ``RELEASE`` instead;
the digest is the default.

config imports no app: the files are read as files.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

#: Folders of the project that are not served code: tests, benchmarks, local state.
SKIPPED = {"tests", "bench", "var", "docs", "deploy", "bin", "node_modules"}
#: Folders holding what pages are rendered from, besides the Python packages.
CONTENT = ("templates", "locale", "static")


def _packages(base: Path) -> Iterator[Path]:
    """The project's Python packages: top-level folders with an __init__.py."""
    for folder in sorted(base.iterdir()):
        if folder.name.startswith(".") or folder.name in SKIPPED:
            continue
        if (folder / "__init__.py").is_file():
            yield folder


def _files(base: Path) -> list[Path]:
    files: list[Path] = []
    for package in _packages(base):
        files.extend(path for path in package.rglob("*.py") if "__pycache__" not in path.parts)
    for name in CONTENT:
        folder = base / name
        if folder.is_dir():
            files.extend(
                path
                for path in folder.rglob("*")
                if path.is_file() and path.suffix != ".po" and "__pycache__" not in path.parts
            )
    return sorted(set(files))


def digest(base: Path = BASE_DIR) -> str:
    """A digest of the served files' paths (relative, so any checkout folder) and contents."""
    hashed = hashlib.sha256()
    for path in _files(base):
        hashed.update(path.relative_to(base).as_posix().encode("utf-8", "surrogateescape"))
        hashed.update(b"\0")
        hashed.update(hashlib.sha256(path.read_bytes()).digest())
    return hashed.hexdigest()[:16]


RELEASE = os.environ.get("RELEASE", "").strip() or digest()
