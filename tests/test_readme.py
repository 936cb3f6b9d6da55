"""Every python block of the README and of the documentation's pages (docs/**/*.md) runs on its
own (a fresh namespace, a scratch working directory), so the examples a newcomer copies cannot
rot: each block imports what it uses and makes the arrays it shows. Blocks that need a GPU or a
library that may be missing guard those lines themselves (`if cuda.is_available():`,
`try: import torch`)."""
import glob
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "**", "*.md"),
                                                                           recursive=True))


def blocks(page):
    with open(os.path.join(ROOT, page)) as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in re.finditer(r"```python\n(.*?)```", text, re.S)]


ALL_BLOCKS = [(page, line, source) for page in PAGES for line, source in blocks(page)]


def test_the_pages_have_examples():
    assert "docs/guide/arrays.md" in PAGES and "docs/guide/kernels.md" in PAGES
    assert len(blocks("README.md")) >= 1
    assert len(ALL_BLOCKS) >= 25


@pytest.mark.parametrize("page, line, source", ALL_BLOCKS,
                         ids=["%s:%d" % (page, line) for page, line, _ in ALL_BLOCKS])
def test_block_runs_alone(page, line, source, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    try:
        exec(compile(source, f"{page}, line {line}", "exec"), namespace)
    except Exception as e:
        raise AssertionError(f"{page}, the block at line {line}: {type(e).__name__}: {e}") from e
