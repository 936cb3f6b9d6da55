"""The notebooks in notebooks/ run top to bottom in a real Jupyter kernel (nbclient and ipykernel,
as Jupyter, VS Code and Colab run them): magics, rich display (the pictures) and IPython's own
error reporting are exercised; any error output fails the test, which names the cell. Their cells
assert their results. Each notebook starts with the cell that installs pygpu on a fresh machine
(Colab) and says what it runs on; here pygpu is importable and the cell installs nothing."""
import os
import pathlib

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

import pygpu  # noqa: E402

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))
TIME_LIMIT = 600   # seconds per cell: the slowest (the Dask cluster) takes a few


def test_there_are_notebooks_with_the_install_cell():
    assert len(NOTEBOOKS) >= 4
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        first_code = next(c for c in nb.cells if c.cell_type == "code")
        assert "%pip install" in first_code.source and "show_config" in first_code.source, path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_in_a_kernel(path, tmp_path, monkeypatch):
    # the kernel imports the pygpu these tests import (a checkout or the installed package)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(pygpu.__file__)))
    monkeypatch.setenv("PYTHONPATH", package_root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=TIME_LIMIT, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        raise AssertionError(f"{path.name}: {e}") from None
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors
