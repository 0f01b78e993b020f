"""Every spec example and every golden record gives exactly its state or error."""

import io
import json
from contextlib import redirect_stdout

import pytest

from engine.cli import main

from .records import golden_paths, load, spec_example_paths

ALL = spec_example_paths() + golden_paths()


def run_replay(record: object) -> tuple[int, dict]:
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(record).encode())
    with redirect_stdout(out), pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdin", io.TextIOWrapper(stdin))
        status = main(["replay"])
    return status, json.loads(out.getvalue())


def test_there_are_records_to_check():
    assert len(spec_example_paths()) >= 11
    assert len(golden_paths()) >= 20


@pytest.mark.parametrize("path", ALL, ids=[path.name for path in ALL])
def test_record_gives_its_state_or_error(path):
    example = load(path)
    status, output = run_replay(example["record"])
    if "state" in example:
        assert status == 0, output
        assert output == example["state"]
    else:
        assert status == 2
        assert set(output) == {"error"}
        assert output["error"]["deal"] == example["error"]["deal"]
        assert isinstance(output["error"]["message"], str) and output["error"]["message"]
