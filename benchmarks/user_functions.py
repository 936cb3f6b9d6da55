"""The user functions the benchmarks time (as source: each run loads fresh function objects from
files, as a new notebook cell does), shared by run.py and tier_check.py."""
import importlib.util
import os
import tempfile

COS2_SIN2 = """
import math
def f(x):
    return math.cos(x) ** 2 + math.sin(x) ** 2
"""

MANDEL = """
def f(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return max_iters
"""


def fresh_functions(source, count, tag):
    """count new function objects f (new code objects too) from modules written to a temporary
    folder: each compiles from scratch, as a new function in a notebook cell does."""
    folder = tempfile.mkdtemp(prefix="pygpu-bench-")
    fns = []
    for i in range(count):
        path = os.path.join(folder, f"{tag}_{i}.py")
        with open(path, "w") as fh:
            fh.write(source + f"\n# {i}\n")
        spec = importlib.util.spec_from_file_location(f"{tag}_{i}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        fns.append(mod.f)
    return fns


def load_function(source, tag):
    return fresh_functions(source, 1, tag)[0]
