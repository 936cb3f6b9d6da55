"""The notebooks in notebooks/ run top to bottom without error (their cells assert their results)."""
import json
import linecache
import pathlib

import pytest

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = json.loads(path.read_text())
    namespace = {"__name__": "__notebook__"}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        name = f"<{path.name}[cell {i}]>"
        # as IPython does: the cell's source in linecache, so inspect finds a function's source
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        try:
            exec(compile(source, name, "exec"), namespace)
        except Exception as e:  # name the failing cell
            raise AssertionError(f"{path.name}, cell {i} failed: {e!r}\n{source}") from e
