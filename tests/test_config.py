"""pygpu.show_config() and the one version number (issue 17, item 5)."""
import importlib.metadata
import io
import os
import re

import pytest

import pygpu
from conftest import child_pythonpath

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_show_config_names_what_users_ask_about():
    out = io.StringIO()
    pygpu.show_config(file=out)
    text = out.getvalue()
    for needle in ("pygpu", pygpu.__version__, "NumPy", "CUDA kernels", "NVRTC", "cuBLAS", "cuSOLVER", "cuFFT",
                   "C++ compiler (CPU kernels)", "default device", str(pygpu.default_device())):
        assert needle in text, (needle, text)
    info = pygpu._core._build_info()
    if info["fatbin_bytes"]:
        for arch in info["fatbin_archs"]:
            assert arch in text
    else:
        assert "built without nvcc" in text


def test_config_sections_are_pairs():
    for section, rows in pygpu._config.config():
        assert isinstance(section, str) and rows
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in rows)


def test_one_version_number():
    # pyproject.toml reads it from pygpu/__init__.py; an installed distribution carries it
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        pyproject = f.read()
    assert re.search(r'dynamic\s*=\s*\[\s*"version"\s*\]', pyproject)
    assert 'version = {attr = "pygpu.__version__"}' in pyproject
    assert not re.search(r'^version\s*=\s*"', pyproject, re.M)
    assert re.fullmatch(r"\d+\.\d+\.\d+([a-z]+\d+)?", pygpu.__version__)
    try:
        installed = importlib.metadata.version("pygpu")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("pygpu is imported from a source tree, not installed")
    assert installed == pygpu.__version__


def test_command_line_help_json_and_config():
    """python -m pygpu --help explains the command (and runs no demo); --json is the report as
    JSON; --config the report alone."""
    import json
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=child_pythonpath())

    def run(*args):
        return subprocess.run([sys.executable, "-m", "pygpu", *args], capture_output=True, text=True, env=env,
                              timeout=120)

    out = run("--help")
    assert out.returncode == 0 and "--json" in out.stdout and "demo on" not in out.stdout
    out = run("--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["build"]["pygpu"] == pygpu.__version__ and "device" in report["default device"]
    out = run("--config")
    assert out.returncode == 0 and "CUDA kernels" in out.stdout and "demo on" not in out.stdout
    out = run("--bogus")
    assert out.returncode == 2 and "unrecognized arguments" in out.stderr

