"""Definite assignment: a local read where some path to the read leaves it unassigned is a compile
error. Python raises UnboundLocalError there when that path runs; compiled code would read
whatever its register held (garbage, or a value left by the previous launch). A path counts as
Python runs it: a loop's body may run zero times, a branch without `else` may be skipped, and
`return`, `break` and `continue` end a path (a `while True` loop is left only through a break)."""
import ast


def check(fn_node, params, locals_, error):
    """Raises error(name, node) (an exception to raise, or None to go on) at each read of a name of
    `locals_` that may be unassigned; params are assigned on entry."""
    if isinstance(fn_node, ast.Lambda):
        return
    _Flow(locals_, error).block(fn_node.body, frozenset(params))


def _meet(a, b):
    """What is assigned on both of two paths (None: a path that does not continue)."""
    if a is None:
        return b
    if b is None:
        return a
    return a & b


def _stored(target):
    names = set()
    for n in ast.walk(target):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            names.add(n.id)
    return names


class _Flow:
    def __init__(self, locals_, error):
        self.locals = locals_
        self.error = error
        self.loops = []   # the break sets of the loops around, innermost last

    def reads(self, node, assigned):
        if node is None:
            return
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in self.locals and n.id not in assigned:
                e = self.error(n.id, n)
                if e is not None:   # (None: the caller checks this read at run time)
                    raise e

    def target_reads(self, target, assigned):
        """The reads a store target makes (a[i] = ... reads a and i)."""
        for n in ast.walk(target):
            if isinstance(n, (ast.Subscript, ast.Attribute)):
                self.reads(n.value, assigned)
                if isinstance(n, ast.Subscript):
                    self.reads(n.slice, assigned)

    def block(self, stmts, assigned):
        for s in stmts:
            assigned = self.stmt(s, assigned)
            if assigned is None:   # the rest cannot be reached
                return None
        return assigned

    def stmt(self, s, assigned):
        if isinstance(s, ast.Assign):
            self.reads(s.value, assigned)
            for t in s.targets:
                self.target_reads(t, assigned)
            return assigned | set().union(*(_stored(t) for t in s.targets)) | self.walrus(s.value)
        if isinstance(s, ast.AugAssign):
            self.reads(s.value, assigned)
            if isinstance(s.target, ast.Name):
                self.reads(ast.Name(id=s.target.id, ctx=ast.Load(), lineno=s.lineno, col_offset=s.col_offset),
                           assigned)
            else:
                self.target_reads(s.target, assigned)
            return assigned
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return assigned
            self.reads(s.value, assigned)
            return assigned | _stored(s.target)
        if isinstance(s, ast.Expr):
            self.reads(s.value, assigned)
            return assigned | self.walrus(s.value)
        if isinstance(s, ast.Return):
            self.reads(s.value, assigned)
            return None
        if isinstance(s, ast.If):
            self.reads(s.test, assigned)
            assigned = assigned | self.walrus(s.test)
            return _meet(self.block(s.body, assigned), self.block(s.orelse, assigned))
        if isinstance(s, ast.While):
            self.reads(s.test, assigned)
            forever = isinstance(s.test, ast.Constant) and bool(s.test.value)
            breaks = self.loop_body(s.body, assigned | self.walrus(s.test))
            if forever:
                return breaks
            return _meet(self.block(s.orelse, assigned), breaks)
        if isinstance(s, ast.For):
            self.reads(s.iter, assigned)
            self.target_reads(s.target, assigned)
            breaks = self.loop_body(s.body, assigned | _stored(s.target))
            return _meet(self.block(s.orelse, assigned), breaks)
        if isinstance(s, ast.Break):
            self.loops[-1].append(assigned)
            return None
        if isinstance(s, ast.Continue):
            return None
        if isinstance(s, ast.Pass):
            return assigned
        # a statement the compilers refuse with their own message (try, with, def, ...): assume
        # it assigns what it stores, so that this check does not speak first
        return assigned | _stored(s)

    def loop_body(self, body, assigned):
        """Checks a loop's body; what is assigned where it breaks (None: it never does)."""
        self.loops.append([])
        self.block(body, assigned)
        out = None
        for b in self.loops.pop():
            out = _meet(out, b)
        return out

    @staticmethod
    def walrus(node):
        return {n.target.id for n in ast.walk(node) if isinstance(n, ast.NamedExpr)} if node is not None else set()
