"""Sphinx configuration of pygpu's documentation: the guides are Markdown (MyST), the API
reference is written at build time from the installed package's docstrings and signatures
(_ext/api_pages.py). Build: python -m sphinx -W --keep-going -b html docs build/docs, from a
directory where `import pygpu` finds a built pygpu (CI runs it from tests/, as the suite)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

import pygpu  # noqa: E402  (the package documented: its version, and a clear error when not built)

project = "pygpu"
author = "the pygpu developers"
copyright = "2026, the pygpu developers"   # noqa: A001 (Sphinx's name)
release = version = pygpu.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.autosummary", "sphinx.ext.napoleon", "api_pages"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
templates_path = []
myst_heading_anchors = 3
# The docstrings are NumPy-style (Parameters / Returns sections)
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_default_options = {"member-order": "alphabetical"}
autodoc_docstring_signature = True      # C functions' first docstring line is their signature
autosummary_generate = False            # api_pages.py writes the pages itself

html_theme = "alabaster"
html_title = "pygpu %s" % release
html_theme_options = {"description": "NumPy-like arrays on the GPU, and the same code on the CPU",
                      "fixed_sidebar": True, "show_relbars": True}
