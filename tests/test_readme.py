"""Every python block of the README runs on its own (a fresh namespace, a scratch working
directory), so the examples a newcomer copies cannot rot: each block imports what it uses and
makes the arrays it shows. Blocks that need a GPU or a library that may be missing guard those
lines themselves (`if cuda.is_available():`, `try: import torch`)."""
import os
import re

import pytest

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def blocks():
    with open(README) as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


def test_the_readme_has_examples():
    assert len(blocks()) >= 20


@pytest.mark.parametrize("line, source", blocks(), ids=lambda v: f"line{v}" if isinstance(v, int) else "")
def test_readme_block_runs_alone(line, source, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__readme__"}
    try:
        exec(compile(source, f"README.md, line {line}", "exec"), namespace)
    except Exception as e:
        raise AssertionError(f"README.md, the block at line {line}: {type(e).__name__}: {e}") from e
