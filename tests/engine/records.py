"""Where the engine's record files live: the spec's examples and our own golden files.

The spec's examples are vendored into `spec_examples/` so a clone without `../shared`
still checks them; when `../shared/spec/examples` is beside the project, its files are
used too (a newer copy there wins), so CI always checks the current contract.
"""

import json
from pathlib import Path

HERE = Path(__file__).parent
SHARED = HERE.parents[2] / "shared" / "spec" / "examples"


def spec_example_paths() -> list[Path]:
    by_name = {path.name: path for path in sorted((HERE / "spec_examples").glob("*.json"))}
    if SHARED.is_dir():
        by_name.update({path.name: path for path in sorted(SHARED.glob("*.json"))})
    return [by_name[name] for name in sorted(by_name)]


def golden_paths() -> list[Path]:
    return sorted((HERE / "golden").glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())
