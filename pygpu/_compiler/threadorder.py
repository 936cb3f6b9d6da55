"""Which thread dimension a kernel's CPU loop should walk innermost (kernels/cuda_cpu.h's
PG_CPU_THREAD_ORDER): the one that selects the fastest-varying memory.

The CPU runs a block's threads as a loop (x innermost by default), which is fast when neighbouring
x threads touch neighbouring memory. The seeds' stencil does `i, j = cuda.grid(2); out[i, j]`:
there x selects the row, and an x-innermost loop walks down columns. Each access to an array of
two or more dimensions votes for the thread dimensions its last index depends on (through
locals: `j = cuda.grid(2)[1]`); an index that depends on several dimensions votes for none. y wins
only with more votes than x; z stays outside (blocks with a z extent are rare and thin)."""
from . import ir, kir

_DIMS = {"x": 0, "y": 1, "z": 2}


def _dims_of(e, deps):
    """The thread dimensions expression e depends on."""
    if isinstance(e, kir.Intrinsic):
        parts = e.name.split(".")
        if parts[0] in ("grid", "threadIdx") and len(parts) == 2 and parts[1] in _DIMS:
            return {_DIMS[parts[1]]}
        return set()
    if isinstance(e, ir.Load):
        return deps.get(id(e.var), set())
    out = set()
    for name in getattr(e, "__slots__", ()):
        if name in ("body", "orelse", "line", "type", "function"):
            continue
        child = getattr(e, name, None)
        if isinstance(child, ir.Node):
            out |= _dims_of(child, deps)
        elif isinstance(child, (list, tuple)):
            for c in child:
                if isinstance(c, ir.Node):
                    out |= _dims_of(c, deps)
    return out


def _statements(stmts):
    for s in stmts:
        yield s
        for name in ("body", "orelse"):
            yield from _statements(getattr(s, name, None) or ())


def _elements(e, out):
    if isinstance(e, kir.Element):
        out.append(e)
    for name in getattr(e, "__slots__", ()):
        if name in ("body", "orelse", "function"):
            continue
        child = getattr(e, name, None)
        if isinstance(child, ir.Node):
            _elements(child, out)
        elif isinstance(child, (list, tuple)):
            for c in child:
                if isinstance(c, ir.Node):
                    _elements(c, out)


def inner_dimension(fn):
    """0 (x) or 1 (y): the dimension kernel fn's CPU loop should walk innermost."""
    stmts = list(_statements(fn.body))
    deps = {}
    changed = True
    while changed:   # a local depends on what any of its assignments depends on
        changed = False
        for s in stmts:
            if isinstance(s, ir.Assign):
                d = deps.get(id(s.target), set()) | _dims_of(s.value, deps)
                if d != deps.get(id(s.target), set()):
                    deps[id(s.target)] = d
                    changed = True
            elif isinstance(s, ir.ForRange):
                d = deps.get(id(s.var), set()) | _dims_of(s.start, deps) | _dims_of(s.stop, deps)
                if d != deps.get(id(s.var), set()):
                    deps[id(s.var)] = d
                    changed = True
    votes = [0, 0, 0]
    for s in stmts:
        elements = []
        for name in getattr(s, "__slots__", ()):
            if name not in ("body", "orelse"):
                child = getattr(s, name, None)
                if isinstance(child, ir.Node):
                    _elements(child, elements)
        for e in elements:
            if len(e.indices) < 2:
                continue
            dims = _dims_of(e.indices[-1], deps)
            if len(dims) == 1:
                votes[dims.pop()] += 1
    return 1 if votes[1] > votes[0] else 0
