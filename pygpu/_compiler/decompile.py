"""The source of a function that has none (made by exec, a code generator, `python -c`): its
bytecode turned back into an ast.FunctionDef, which the compilers then take like parsed source.
CPython 3.10 to 3.13.

1. Blocks: the instructions cut at jumps and jump targets.
2. Each block, in reverse postorder, runs on a stack of AST expressions, so `a[i] + 1` comes back
   as that expression and a STORE as an assignment. A value that crosses into a block with
   several predecessors becomes `x if c else y` or `a and b` where the blocks have that shape, a
   temporary otherwise. An expression left on the stack across a store that could change it
   (`a, b = b, a`) is first saved in a temporary.
3. The graph is simplified: empty jump blocks skipped, test-only blocks merged into one condition
   (`if a and b:`), and the duplicated test at the end of a `while` (CPython puts the condition
   both before the loop and at its end) sent back to the first one.
4. Structure: loops are the natural loops (a FOR_ITER header is a `for`, any other header a
   `while True:` whose exits are `break`, tidied to `while c:`); an `if` ends at its immediate
   post-dominator, where paths that return or raise do not count.

What has no structured form here (try/with, nested functions, comprehensions, generators, a
for/else) raises DecompileError naming it and its line; the caller then says the source is
missing and why."""
import ast
import dis
import sys

_V = sys.version_info[:2]

_BINARY = {
    "+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.Div, "//": ast.FloorDiv, "%": ast.Mod,
    "**": ast.Pow, "<<": ast.LShift, ">>": ast.RShift, "&": ast.BitAnd, "|": ast.BitOr, "^": ast.BitXor,
    "@": ast.MatMult,
}
_BINARY_310 = {
    "ADD": "+", "SUBTRACT": "-", "MULTIPLY": "*", "TRUE_DIVIDE": "/", "FLOOR_DIVIDE": "//", "MODULO": "%",
    "POWER": "**", "LSHIFT": "<<", "RSHIFT": ">>", "AND": "&", "OR": "|", "XOR": "^", "MATRIX_MULTIPLY": "@",
}
_COMPARE = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}
_UNARY = {"UNARY_NEGATIVE": ast.USub, "UNARY_POSITIVE": ast.UAdd, "UNARY_NOT": ast.Not, "UNARY_INVERT": ast.Invert}
_JUMPS = set(dis.hasjrel) | set(dis.hasjabs) | set(getattr(dis, "hasjump", ()))
_UNCONDITIONAL = {"JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP",
                  "JUMP_NO_INTERRUPT"}
_ENDS = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE"}
_NOTHING = {"NOP", "RESUME", "EXTENDED_ARG", "CACHE", "PRECALL", "MAKE_CELL", "COPY_FREE_VARS", "TO_BOOL",
            "NOT_TAKEN"}
_UNSUPPORTED = {
    "MAKE_FUNCTION": "nested functions and lambdas", "LOAD_CLOSURE": "nested functions and lambdas",
    "LOAD_FAST_AND_CLEAR": "comprehensions", "SET_ADD": "comprehensions",
    "MAP_ADD": "comprehensions", "YIELD_VALUE": "generators", "GET_AWAITABLE": "coroutines",
    "SETUP_FINALLY": "try statements", "SETUP_WITH": "with statements", "BEFORE_WITH": "with statements",
    "PUSH_EXC_INFO": "try statements", "IMPORT_NAME": "import statements", "DELETE_FAST": "del statements",
    "DELETE_SUBSCR": "del statements", "STORE_GLOBAL": "global declarations", "FORMAT_VALUE": "f-strings",
    "FORMAT_SIMPLE": "f-strings", "BUILD_STRING": "f-strings", "UNPACK_EX": "starred assignments",
}
# the code objects of a function's nested scopes before 3.12 inlined comprehensions
_NESTED_CODE = {"<listcomp>": "comprehensions", "<setcomp>": "comprehensions", "<dictcomp>": "comprehensions",
                "<genexpr>": "generator expressions"}
_MAX_NODES = 50000   # duplicated tails (exits copied into each path) stop here rather than grow on


class DecompileError(Exception):
    """The bytecode has no structured form here; .line: where."""

    def __init__(self, message, line=None):
        super().__init__(message)
        self.line = line


class _Marker:
    """A stack entry that is not a value: NULL of a call, an iterator, a loop's next item."""

    def __init__(self, kind, data=None):
        self.kind, self.data = kind, data


_NULL = _Marker("null")


def _is_expr(v):
    return isinstance(v, ast.AST)


def _has(node, kinds):
    return any(isinstance(n, kinds) for n in ast.walk(node))


def _names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _same(a, b):
    return a is b or (_is_expr(a) and _is_expr(b) and ast.dump(a) == ast.dump(b))


class _Block:
    def __init__(self, start, instrs):
        self.start, self.instrs = start, instrs
        self.line = None
        self.stmts = []
        self.term = None          # ('jump', b) ('cond', test, if_true, if_false) ('for', iter, body, exit)
        #                           ('return', value) ('raise', exc, cause)
        self.succs, self.preds = [], []
        self.out = {}             # successor block -> stack on that edge
        self.in_stack = None
        self.for_target = None    # on a FOR_ITER block: the loop's target, set by its body
        self.term_line = None

    def __repr__(self):
        return f"<block {self.start}>"


def _line_of(ins, last):
    line = getattr(ins, "line_number", None)
    if line is None and getattr(ins, "positions", None) is not None:
        line = ins.positions.lineno
    if line is None and isinstance(getattr(ins, "starts_line", None), int) and not isinstance(ins.starts_line, bool):
        line = ins.starts_line
    return line if line is not None else last


class _Decompiler:
    def __init__(self, fn):
        self.fn = fn
        self.code = code = fn.__code__
        self.line = code.co_firstlineno
        self.temps = 0
        self.nodes = 0
        if code.co_flags & 0x2A0:          # generator, coroutine, async generator
            raise DecompileError("generators and coroutines", code.co_firstlineno)
        self.instrs = list(dis.get_instructions(code))
        last = code.co_firstlineno
        self.lines = {}
        for ins in self.instrs:
            last = _line_of(ins, last)
            self.lines[ins.offset] = last
            if ins.opname in _UNSUPPORTED and ins.opname != "LOAD_CLOSURE":
                raise DecompileError(_UNSUPPORTED[ins.opname], last)
            if ins.opname == "LOAD_CONST" and isinstance(ins.argval, type(code)):
                raise DecompileError(_NESTED_CODE.get(ins.argval.co_name, "nested functions and lambdas"), last)
        if getattr(code, "co_exceptiontable", b""):
            raise DecompileError("try and with statements", code.co_firstlineno)

    # -------------------------------------------------------------- nodes

    def node(self, cls, *args, line=None, **kw):
        n = cls(*args, **kw)
        n.lineno = n.end_lineno = line if line is not None else self.line
        self.nodes += 1
        n.col_offset = n.end_col_offset = self.nodes   # unique: compilers name hidden locals by place
        return n

    def error(self, what, line=None):
        return DecompileError(what, line if line is not None else self.line)

    def temp(self):
        self.temps += 1
        name = f"_pg_t{self.temps}"
        while name in self.code.co_varnames:
            self.temps += 1
            name = f"_pg_t{self.temps}"
        return name

    def const(self, value):
        if isinstance(value, tuple):
            return self.node(ast.Tuple, [self.const(v) for v in value], ast.Load())
        if isinstance(value, slice):
            return self.slice(value.start, value.stop, value.step)
        if isinstance(value, type(self.code)):
            raise self.error("nested functions and lambdas")
        if isinstance(value, frozenset):
            raise self.error("set constants")
        return self.node(ast.Constant, value)

    def slice(self, *parts):
        parts = [None if p is None or (isinstance(p, ast.Constant) and p.value is None) else
                 (p if _is_expr(p) else self.const(p)) for p in parts]
        return self.node(ast.Slice, *parts)

    # -------------------------------------------------------------- 1. blocks

    def blocks(self):
        leaders = {self.instrs[0].offset}
        for i, ins in enumerate(self.instrs):
            if ins.opcode in _JUMPS:
                leaders.add(ins.argval)
            if (ins.opcode in _JUMPS or ins.opname in _ENDS) and i + 1 < len(self.instrs):
                leaders.add(self.instrs[i + 1].offset)
        blocks, current = [], []
        for ins in self.instrs:
            if ins.offset in leaders and current:
                blocks.append(_Block(current[0].offset, current))
                current = []
            current.append(ins)
        blocks.append(_Block(current[0].offset, current))
        at = {b.start: b for b in blocks}
        for i, b in enumerate(blocks):
            last = b.instrs[-1]
            nxt = blocks[i + 1] if i + 1 < len(blocks) else None
            if last.opname in _ENDS:
                succ = []
            elif last.opname in _UNCONDITIONAL:
                succ = [at[last.argval]]
            elif last.opcode in _JUMPS:
                succ = [nxt, at[last.argval]]
            else:
                succ = [nxt]
            if None in succ:
                raise self.error("control flow that runs off the end of the code")
            b.succs = succ
        self.entry = blocks[0]
        return blocks

    def rpo(self, entry):
        seen, order = set(), []

        def visit(b):
            stack = [(b, iter(b.succs))]
            seen.add(b)
            while stack:
                node, it = stack[-1]
                for s in it:
                    if s not in seen:
                        seen.add(s)
                        stack.append((s, iter(s.succs)))
                        break
                else:
                    order.append(node)
                    stack.pop()
        visit(entry)
        return order[::-1]

    # -------------------------------------------------------------- 2. running the blocks

    def simulate(self):
        order = self.rpo(self.entry)
        index = {b: i for i, b in enumerate(order)}
        for b in order:
            for s in b.succs:
                s.preds.append(b)
        self.entry.in_stack = []
        for b in order:
            forward = [p for p in b.preds if index[p] < index[b]]
            if b is not self.entry:
                if not forward:
                    raise self.error("a loop entered other than at its start", self.lines[b.start])
                b.in_stack = self.join(b, forward)
            self.run(b)
        for b in order:    # back edges bring the stack the loop started with
            for s in b.succs:
                if index[s] <= index[b]:
                    out, want = b.out[s], s.in_stack
                    if len(out) != len(want) or any(not _same(x, y) for x, y in zip(out, want)):
                        raise self.error("a value carried around a loop on the stack", self.lines[b.start])
        return order

    def join(self, b, preds):
        stacks = [p.out[b] for p in preds]
        if len(preds) == 1:
            return list(stacks[0])
        n = len(stacks[0])
        if any(len(s) != n for s in stacks):
            raise self.error("paths that meet with different stack depths", self.lines[b.start])
        if n == 0:
            return []
        shaped = self.value_join(b, preds)
        if shaped is not None:
            return shaped
        merged = []
        for k in range(n):
            column = [s[k] for s in stacks]
            if all(c is column[0] for c in column):
                merged.append(column[0])
                continue
            if not all(_is_expr(c) for c in column):
                raise self.error("paths that meet with different stack contents", self.lines[b.start])
            name = self.temp()
            line = self.lines[b.start]
            for p, c in zip(preds, column):
                p.stmts.append(self.node(ast.Assign, [self.node(ast.Name, name, ast.Store(), line=line)], c,
                                         line=line))
            merged.append(self.node(ast.Name, name, ast.Load(), line=line))
        return merged

    def value_join(self, b, preds):
        """`x if c else y` and `a and b` / `a or b` where the blocks have their shape, else None."""
        if len(preds) != 2:
            return None
        p, q = preds
        for first, arm in ((p, q), (q, p)):     # a and b: the test's block and the arm after it
            t = first.term
            if (t[0] == "cond" and arm.preds == [first] and not arm.stmts and arm.term == ("jump", b)
                    and b in t[2:] and arm in t[2:]):
                a_stack, b_stack = first.out[b], arm.out[b]
                if a_stack[:-1] == b_stack[:-1] and _same(a_stack[-1], t[1]) and _is_expr(b_stack[-1]):
                    op = ast.And if t[3] is b else ast.Or
                    value = self.node(ast.BoolOp, op(), [a_stack[-1], b_stack[-1]], line=self.lines[b.start])
                    self.retarget(first, b, [p, q])
                    return a_stack[:-1] + [value]
        if p.preds == q.preds and len(p.preds) == 1 and not p.stmts and not q.stmts:
            c = p.preds[0]
            t = c.term
            if (t[0] == "cond" and {t[2], t[3]} == {p, q} and p.term == ("jump", b) and q.term == ("jump", b)):
                ps, qs = p.out[b], q.out[b]
                base = c.out[p]
                if (len(ps) == len(base) + 1 and ps[:-1] == base and qs[:-1] == base and c.out[q] == base
                        and _is_expr(ps[-1]) and _is_expr(qs[-1])):
                    yes, no = (ps[-1], qs[-1]) if t[2] is p else (qs[-1], ps[-1])
                    value = self.node(ast.IfExp, t[1], yes, no, line=self.lines[b.start])
                    self.retarget(c, b, [p, q])
                    return base + [value]
        return None

    def retarget(self, c, b, dropped):
        """c's test became part of a value: c now jumps to b; the arms are gone."""
        stack = c.out.get(b, c.out.get(dropped[0]))
        for d in dropped:
            if d is not c:
                d.succs, d.term = [], ("dead",)
        c.term = ("jump", b)
        c.succs = [b]
        c.out = {b: stack}
        b.preds = [x for x in b.preds if x not in dropped and x is not c] + [c]

    def spill(self, b, stack, keep=lambda v: True, line=None):
        """Entries of the stack that keep() marks are saved in temporaries (before a store)."""
        for k, v in enumerate(stack):
            if _is_expr(v) and not isinstance(v, (ast.Constant, ast.Name)) and keep(v):
                name = self.temp()
                b.stmts.append(self.node(ast.Assign, [self.node(ast.Name, name, ast.Store(), line=line)], v,
                                         line=line))
                stack[k] = self.node(ast.Name, name, ast.Load(), line=line)

    def before_store(self, b, stack, target):
        """A store is about to happen: what is on the stack must still read the old values."""
        if isinstance(target, ast.Name):
            name = target.id
            for k, v in enumerate(stack):
                if _is_expr(v) and name in _names(v):
                    if isinstance(v, ast.Name):
                        tmp = self.temp()
                        b.stmts.append(self.node(ast.Assign, [self.node(ast.Name, tmp, ast.Store())], v))
                        stack[k] = self.node(ast.Name, tmp, ast.Load())
                    else:
                        self.spill(b, stack, lambda x, v=v: x is v)
        else:
            self.spill(b, stack, lambda v: _has(v, (ast.Subscript, ast.Call, ast.Attribute)))

    def run(self, b):
        st = list(b.in_stack)
        self.kwnames = ()
        self.line = self.lines[b.start]
        b.line = self.line
        unpacks = []

        def pop(n=1):
            if len(st) < n:
                raise self.error("a stack that runs out (bytecode this decompiler does not know)")
            items = st[len(st) - n:]
            del st[len(st) - n:]
            return items

        def value(v):
            if not _is_expr(v):
                raise self.error("a value this decompiler cannot name")
            return v

        def store(target, v):
            if isinstance(v, _Marker) and v.kind == "for":
                v.data.for_target = target
                return
            if isinstance(v, _Marker) and v.kind == "part":
                group, k = v.data
                group["targets"][k] = target
                if all(t is not None for t in group["targets"]):
                    tup = self.node(ast.Tuple, group["targets"], ast.Store())
                    store(tup, group["value"])
                return
            v = value(v)
            self.before_store(b, st, target if not isinstance(target, ast.Tuple) else None)
            if isinstance(v, ast.BinOp) and getattr(v, "_pg_inplace", False) and _same_target(v.left, target):
                b.stmts.append(self.node(ast.AugAssign, target, v.op, v.right))
            else:
                b.stmts.append(self.node(ast.Assign, [target], v))

        def call(args, func):
            kw = self.kwnames
            self.kwnames = ()
            pos = args[:len(args) - len(kw)]
            keywords = [self.node(ast.keyword, k, value(a)) for k, a in zip(kw, args[len(args) - len(kw):])]
            return self.node(ast.Call, value(func), [value(a) for a in pos], keywords)

        for ins in b.instrs:
            op, arg = ins.opname, ins.argval
            self.line = b.term_line = self.lines[ins.offset]
            if op in _NOTHING:
                continue
            if op in _UNSUPPORTED:
                raise self.error(_UNSUPPORTED[op])
            if op in ("LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_DEREF", "LOAD_FAST_BORROW"):
                st.append(self.node(ast.Name, arg, ast.Load()))
            elif op == "LOAD_FAST_LOAD_FAST":
                st += [self.node(ast.Name, n, ast.Load()) for n in arg]
            elif op == "LOAD_CONST":
                st.append(self.const(arg))
            elif op == "LOAD_SMALL_INT":
                st.append(self.const(arg))
            elif op == "LOAD_GLOBAL":
                name = self.node(ast.Name, arg, ast.Load())
                if _V >= (3, 11) and ins.arg & 1:     # NULL below the callable until 3.13, above it after
                    st += [_NULL, name] if _V < (3, 13) else [name, _NULL]
                else:
                    st.append(name)
            elif op == "LOAD_ASSERTION_ERROR":
                n = self.node(ast.Name, "AssertionError", ast.Load())
                n._pg_assert = True
                st.append(n)
            elif op == "LOAD_ATTR":
                obj = value(pop()[0])
                attr = self.node(ast.Attribute, obj, arg, ast.Load())
                st += [attr, _NULL] if _V >= (3, 12) and ins.arg & 1 else [attr]
            elif op == "LOAD_METHOD":
                obj = value(pop()[0])
                st += [self.node(ast.Attribute, obj, arg, ast.Load()), _NULL]
            elif op == "PUSH_NULL":
                st.append(_NULL)
            elif op in ("STORE_FAST", "STORE_DEREF"):
                store(self.node(ast.Name, arg, ast.Store()), pop()[0])
            elif op == "STORE_FAST_STORE_FAST":
                first, second = arg
                store(self.node(ast.Name, first, ast.Store()), pop()[0])
                store(self.node(ast.Name, second, ast.Store()), pop()[0])
            elif op == "STORE_FAST_LOAD_FAST":
                first, second = arg
                store(self.node(ast.Name, first, ast.Store()), pop()[0])
                st.append(self.node(ast.Name, second, ast.Load()))
            elif op == "STORE_SUBSCR":
                v, obj, idx = pop(3)
                store(self.node(ast.Subscript, value(obj), value(idx), ast.Store()), v)
            elif op == "STORE_SLICE":
                v, obj, lo, hi = pop(4)
                store(self.node(ast.Subscript, value(obj), self.slice(lo, hi), ast.Store()), v)
            elif op == "STORE_ATTR":
                obj, v = pop(2)[::-1]
                store(self.node(ast.Attribute, value(obj), arg, ast.Store()), v)
            elif op == "POP_TOP":
                v = pop()[0]
                if _is_expr(v) and _has(v, ast.Call):
                    self.spill(b, st, lambda x: _has(x, (ast.Call, ast.Subscript)))
                    b.stmts.append(self.node(ast.Expr, v))
            elif op == "END_FOR":
                pop(2 if _V == (3, 12) else 1)
            elif op in ("ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N"):
                n = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4}.get(op, ins.arg)
                st[-n:] = [st[-1]] + st[-n:-1]
            elif op in ("DUP_TOP", "DUP_TOP_TWO", "COPY"):
                n = {"DUP_TOP": 1, "DUP_TOP_TWO": 2}.get(op, ins.arg)
                if op == "DUP_TOP_TWO":
                    self.spill(b, st, lambda x: _has(x, ast.Call))
                    st += st[-2:]
                else:
                    k = len(st) - n
                    if _is_expr(st[k]) and _has(st[k], ast.Call):
                        self.spill(b, st, lambda x, v=st[k]: x is v)
                    st.append(st[k])
            elif op == "SWAP":
                n = ins.arg
                st[-1], st[-n] = st[-n], st[-1]
            elif op == "BINARY_OP":
                sym = ins.argrepr
                if sym == "[]":
                    obj, idx = pop(2)
                    st.append(self.node(ast.Subscript, value(obj), value(idx), ast.Load()))
                    continue
                inplace = sym.endswith("=") and sym not in _COMPARE
                left, right = pop(2)
                n = self.node(ast.BinOp, value(left), _BINARY[sym.rstrip("=") if inplace else sym](), value(right))
                n._pg_inplace = inplace
                st.append(n)
            elif op.startswith(("BINARY_", "INPLACE_")) and op.split("_", 1)[1] in _BINARY_310:
                left, right = pop(2)
                n = self.node(ast.BinOp, value(left), _BINARY[_BINARY_310[op.split("_", 1)[1]]](), value(right))
                n._pg_inplace = op.startswith("INPLACE_")
                st.append(n)
            elif op in _UNARY:
                st.append(self.node(ast.UnaryOp, _UNARY[op](), value(pop()[0])))
            elif op == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_UNARY_POSITIVE":
                st.append(self.node(ast.UnaryOp, ast.UAdd(), value(pop()[0])))
            elif op == "COMPARE_OP":
                sym = ins.argrepr
                if sym.startswith("bool(") and sym.endswith(")"):
                    sym = sym[5:-1]
                left, right = pop(2)
                st.append(self.node(ast.Compare, value(left), [_COMPARE[sym]()], [value(right)]))
            elif op in ("IS_OP", "CONTAINS_OP"):
                cmp = (ast.IsNot if ins.arg else ast.Is) if op == "IS_OP" else (ast.NotIn if ins.arg else ast.In)
                left, right = pop(2)
                st.append(self.node(ast.Compare, value(left), [cmp()], [value(right)]))
            elif op == "BINARY_SUBSCR":
                obj, idx = pop(2)
                st.append(self.node(ast.Subscript, value(obj), value(idx), ast.Load()))
            elif op == "BINARY_SLICE":
                obj, lo, hi = pop(3)
                st.append(self.node(ast.Subscript, value(obj), self.slice(lo, hi), ast.Load()))
            elif op == "BUILD_SLICE":
                st.append(self.slice(*pop(ins.arg)))
            elif op in ("BUILD_TUPLE", "BUILD_LIST"):
                items = [value(v) for v in pop(ins.arg)] if ins.arg else []
                st.append(self.node(ast.Tuple if op == "BUILD_TUPLE" else ast.List, items, ast.Load()))
            elif op == "LIST_EXTEND":
                v = value(pop()[0])
                lst = st[-ins.arg]
                if not isinstance(lst, ast.List):
                    raise self.error("list displays")
                lst.elts += [self.const(c) for c in v.value] if isinstance(v, ast.Constant) else (
                    v.elts if isinstance(v, ast.Tuple) else [self.node(ast.Starred, v, ast.Load())])
            elif op == "LIST_APPEND":      # f(*a, 5): the arguments' list (comprehensions stop earlier)
                v = value(pop()[0])
                lst = st[-ins.arg]
                if not isinstance(lst, ast.List):
                    raise self.error("comprehensions")
                lst.elts.append(v)
            elif op == "LIST_TO_TUPLE" or (op == "CALL_INTRINSIC_1" and ins.argrepr == "INTRINSIC_LIST_TO_TUPLE"):
                lst = value(pop()[0])
                st.append(self.node(ast.Tuple, lst.elts, ast.Load()))
            elif op == "BUILD_MAP":
                flat = pop(2 * ins.arg)
                st.append(self.node(ast.Dict, [value(k) for k in flat[::2]], [value(v) for v in flat[1::2]]))
            elif op == "BUILD_CONST_KEY_MAP":
                keys = pop()[0]
                vals = pop(ins.arg)
                st.append(self.node(ast.Dict, list(keys.elts), [value(v) for v in vals]))
            elif op == "DICT_MERGE":
                v = value(pop()[0])
                d = st[-ins.arg]
                d.keys.append(None)
                d.values.append(v)
            elif op == "KW_NAMES":
                self.kwnames = tuple(self.code.co_consts[ins.arg]) if not isinstance(arg, tuple) else arg
            elif op in ("CALL", "CALL_KW", "CALL_METHOD", "CALL_FUNCTION", "CALL_FUNCTION_KW"):
                if op in ("CALL_KW", "CALL_FUNCTION_KW"):
                    names = pop()[0]
                    self.kwnames = tuple(e.value for e in names.elts) if isinstance(names, ast.Tuple) else names.value
                args = pop(ins.arg) if ins.arg else []
                below = pop(1 if op in ("CALL_FUNCTION", "CALL_FUNCTION_KW") else 2)
                funcs = [v for v in below if v is not _NULL]
                if len(funcs) == 2:      # [callable, self]: self is the first argument
                    args = [funcs[1]] + list(args)
                elif len(funcs) != 1:
                    raise self.error("a call this decompiler does not know")
                st.append(call(args, funcs[0]))
            elif op == "CALL_FUNCTION_EX":
                kwargs = pop()[0] if ins.arg & 1 else None
                pargs = value(pop()[0])
                f = pop()[0]
                if f is _NULL:
                    f = pop()[0]
                elif st and st[-1] is _NULL:
                    pop()
                if isinstance(pargs, (ast.Tuple, ast.List)):
                    args = list(pargs.elts)
                elif isinstance(pargs, ast.Constant) and isinstance(pargs.value, tuple):
                    args = [self.const(c) for c in pargs.value]
                else:
                    args = [self.node(ast.Starred, pargs, ast.Load())]
                keywords = []
                if kwargs is not None:
                    if not isinstance(kwargs, ast.Dict):
                        kwargs = self.node(ast.Dict, [None], [value(kwargs)])
                    for k, v in zip(kwargs.keys, kwargs.values):
                        keywords.append(self.node(ast.keyword, k.value if k is not None else None, v))
                st.append(self.node(ast.Call, value(f), args, keywords))
            elif op == "UNPACK_SEQUENCE":
                v = pop()[0]
                group = {"value": v, "targets": [None] * ins.arg}
                if isinstance(v, _Marker) and v.kind == "part":
                    group["value"] = v
                st += [_Marker("part", (group, k)) for k in reversed(range(ins.arg))]
                unpacks.append(group)
            elif op == "GET_ITER":
                st.append(_Marker("iter", value(pop()[0])))
            elif op == "FOR_ITER":
                it = st[-1]
                if not (isinstance(it, _Marker) and it.kind == "iter"):
                    raise self.error("a for loop over something this decompiler cannot name")
                body, leave = b.succs
                b.out[body] = st + [_Marker("for", b)]
                b.out[leave] = st + [_Marker("exhausted")] if _V >= (3, 12) else st[:-1]
                b.term = ("for", it.data, body, leave)
                return
            elif op in ("RETURN_VALUE", "RETURN_CONST"):
                v = self.const(arg) if op == "RETURN_CONST" else value(pop()[0])
                if isinstance(v, ast.Constant) and v.value is None:
                    v = None
                b.term = ("return", v)
                return
            elif op == "RAISE_VARARGS":
                parts = [value(x) for x in pop(ins.arg)] if ins.arg else []
                b.term = ("raise", parts[0] if parts else None, parts[1] if len(parts) > 1 else None)
                return
            elif "POP_JUMP" in op:
                test = value(pop()[0])
                fall, jump = b.succs
                if op.endswith("_IF_NONE") or op.endswith("_IF_NOT_NONE"):
                    cmp = ast.Is if op.endswith("_IF_NONE") else ast.IsNot
                    test = self.node(ast.Compare, test, [cmp()], [self.const(None)])
                    when = True
                else:
                    when = op.endswith("_IF_TRUE")
                b.out[fall] = b.out[jump] = list(st)
                b.term = ("cond", test, jump, fall) if when else ("cond", test, fall, jump)
                return
            elif op in ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP"):
                if _has(st[-1], ast.Call):
                    self.spill(b, st, lambda x, v=st[-1]: x is v)
                test = value(st[-1])
                fall, jump = b.succs
                b.out[jump] = list(st)
                b.out[fall] = st[:-1]
                b.term = ("cond", test, jump, fall) if op == "JUMP_IF_TRUE_OR_POP" else ("cond", test, fall, jump)
                return
            elif op in _UNCONDITIONAL:
                break
            else:
                raise self.error(f"the bytecode {op}")
        for group in unpacks:
            if any(t is None for t in group["targets"]):
                raise self.error("unpacking whose targets this decompiler cannot name")
        nxt = b.succs[0]
        b.out[nxt] = st
        b.term = ("jump", nxt)

    # -------------------------------------------------------------- 3. simplifying the graph

    def simplify(self, order):
        live = [b for b in order if b.term != ("dead",)]
        # CPython copies small exit blocks (`return None`) to each path: one copy serves them all
        first = {}
        for b in live:
            if b.term[0] in ("return", "raise") and b is not self.entry:
                key = _signature(b)
                if key in first:
                    for p in list(b.preds):
                        self.redirect(p, b, first[key])
                else:
                    first[key] = b
        live = [b for b in live if b is self.entry or b.preds]
        changed = True
        while changed:
            changed = False
            for b in live:       # an empty block that only jumps on: its predecessors go straight on
                if b is self.entry or b.stmts or b.term[0] != "jump" or b.term[1] is b:
                    continue
                target = b.term[1]
                if not b.preds:
                    continue
                for p in list(b.preds):
                    self.redirect(p, b, target)
                b.preds = []
                target.preds = [x for x in target.preds if x is not b]
                changed = True
            for b in live:       # `if a and b:` ...
                if self.merge_condition(b):
                    changed = True
            for b in live:       # the test CPython copies to the end of a while loop
                if self.share_loop_test(b, live):
                    changed = True
            live = [b for b in live if b is self.entry or b.preds]

    def redirect(self, p, old, new):
        p.term = tuple(new if x is old else x for x in p.term)
        p.succs = [new if s is old else s for s in p.succs]
        if p.term[0] == "cond" and p.term[2] is p.term[3] and not _has(p.term[1], ast.Call):
            p.term = ("jump", new)      # a test that goes the same way either way (`if c: pass`)
            p.succs = [new]
        old.preds = [x for x in old.preds if x is not p]
        if p not in new.preds:
            new.preds.append(p)

    def merge_condition(self, b):
        t = b.term
        if t[0] != "cond":
            return False
        for x in (t[2], t[3]):
            if x is b or x.preds != [b] or x.stmts or x.term[0] != "cond" or x is self.entry:
                continue
            _, c2, t2, f2 = x.term
            other = t[3] if x is t[2] else t[2]
            c1 = t[1]
            line = c1.lineno
            notc = lambda c: self.node(ast.UnaryOp, ast.Not(), c, line=line)
            both = lambda op, a, c: self.node(ast.BoolOp, op(), [a, c], line=line)
            if x is t[2] and f2 is other:
                new = ("cond", both(ast.And, c1, c2), t2, other)
            elif x is t[2] and t2 is other:
                new = ("cond", both(ast.And, c1, notc(c2)), f2, other)
            elif x is t[3] and t2 is other:
                new = ("cond", both(ast.Or, c1, c2), other, f2)
            elif x is t[3] and f2 is other:
                new = ("cond", both(ast.Or, c1, notc(c2)), other, t2)
            else:
                continue
            b.term = new
            b.succs = [new[2], new[3]]
            for s in x.succs:
                s.preds = [p for p in s.preds if p is not x]
                if b not in s.preds:
                    s.preds.append(b)
            x.preds = []
            return True
        return False

    def share_loop_test(self, b, live):
        """A block ending in the same test, with the same targets, as an earlier block that the
        loop's body follows: it jumps to (the test of) that block instead. The test runs once
        either way, and `while c:` becomes one loop rather than an `if` around a loop."""
        t = b.term
        if t[0] != "cond":
            return False
        for h in live:
            ht = h.term
            if h is b or ht[0] != "cond" or not (h.preds or h is self.entry):
                continue
            if not (_same(ht[1], t[1]) and ht[2] is t[2] and _equivalent(ht[3], t[3])):
                continue
            if not (h.start < t[2].start <= b.start):     # only the test a loop repeats at its end
                continue
            if h.stmts or h is self.entry:                 # the test alone, as a block of its own
                h = self.split_test(h, live)
            for s in b.succs:
                s.preds = [p for p in s.preds if p is not b]
            b.term = ("jump", h)
            b.succs = [h]
            h.preds.append(b)
            return True
        return False

    def split_test(self, h, live):
        test = _Block(h.start + 0.5, [])
        test.line = test.term_line = h.term_line
        test.term, test.succs, test.preds = h.term, h.succs, [h]
        for s in h.succs:
            s.preds = [test if p is h else p for p in s.preds]
        h.term, h.succs = ("jump", test), [test]
        live.insert(live.index(h) + 1, test)
        return test

    # -------------------------------------------------------------- 4. structure

    def structure(self):
        order = self.rpo(self.entry)
        index = {b: i for i, b in enumerate(order)}
        dom = _dominators(order, self.entry)
        loops = {}
        for b in order:
            for s in b.succs:
                if index[s] <= index[b]:
                    if s not in dom[b]:
                        raise self.error("control flow that Python's own statements do not make", b.line)
                    body = loops.setdefault(s, {s})
                    todo = [b]
                    while todo:
                        n = todo.pop()
                        if n not in body:
                            body.add(n)
                            todo += n.preds
        self.loops = loops
        self.reach = {}
        body = self.walk(self.entry, None, [])
        return body

    def reachable(self, b):
        got = self.reach.get(b)
        if got is None:
            got, todo = set(), [b]
            while todo:
                n = todo.pop()
                if n not in got:
                    got.add(n)
                    todo += n.succs
            self.reach[b] = got
        return got

    def plan_loop(self, h, ctx):
        """The _Loop of header h: its follow (the block after it), the entry of a for loop's
        `else:`, and the other exits of a while loop that reach the follow (their code is inlined
        before a `break`). Exits that only return or raise are inlined where they are."""
        loop = _Loop(h, self.loops[h])
        body = loop.body
        outer = ctx + [loop]
        exits = {s for n in body for s in n.succs if s not in body}
        going_on = {x for x in exits if not self.terminal(x, outer)}
        if h.term[0] == "for":
            done = h.term[3]
            others = going_on - {done}
            if not others:
                loop.follow = done
            elif len(others) == 1 and next(iter(others)) in self.reachable_within(done, ctx):
                loop.follow, loop.orelse = next(iter(others)), done       # for ... else
            else:
                raise self.error("a for loop left more ways than break and its else", h.line)
        elif going_on:
            # the follow: the exit every other going-on exit reaches (a while ... else reaches it)
            ends = [x for x in going_on if all(x in self.reachable_within(y, ctx) for y in going_on)]
            if len(ends) != 1:
                raise self.error("a while loop left more ways than break and its else", h.line)
            loop.follow = ends[0]
            loop.inline = going_on - {loop.follow}
        else:
            loop.follow = max(exits, key=lambda x: (len(self.reachable(x)), x.start), default=None)
        for x in loop.inline | ({loop.orelse} - {None}):
            if not self.clean_until(x, loop.follow, ctx, body):
                raise self.error("a loop whose else jumps out of an enclosing loop", h.line)
        return loop

    def reachable_within(self, b, ctx):
        """The blocks reached from b without passing an enclosing loop's header or follow."""
        bounds = {c.header for c in ctx} | {c.follow for c in ctx}
        got, todo = set(), [b]
        while todo:
            n = todo.pop()
            if n not in got:
                got.add(n)
                if n not in bounds:
                    todo += n.succs
        return got

    def clean_until(self, b, stop, ctx, body):
        """True when the paths from b reach stop, or return or raise, touching no loop of ctx."""
        seen, todo = set(), [b]
        while todo:
            n = todo.pop()
            if n in seen or n is stop:
                continue
            seen.add(n)
            if n in body or any(n is c.header or n is c.follow for c in ctx):
                return False
            todo += n.succs
        return True

    def terminal(self, b, ctx):
        """True when every path from b returns or raises without meeting an enclosing loop."""
        r = self.reachable(b)
        return not any(r & c.body or (c.follow is not None and c.follow in r) for c in ctx)

    def walk(self, b, stop, ctx):
        out = []
        while b is not None and b is not stop:
            if self.nodes > _MAX_NODES:
                raise self.error("control flow too tangled to rebuild")
            if b in self.loops and not any(c.header is b for c in ctx):
                loop = self.plan_loop(b, ctx)
                out += self.loop(loop, ctx)
                nxt = loop.follow
            else:
                out += b.stmts
                t = b.term
                self.line = b.line
                if t[0] == "return":
                    out.append(self.node(ast.Return, t[1], line=b.term_line))
                    return out
                if t[0] == "raise":
                    out.append(self.node(ast.Raise, t[1], t[2], line=b.term_line))
                    return out
                if t[0] == "jump":
                    nxt = t[1]
                elif t[0] == "cond":
                    nxt = self.if_follow(b, stop, ctx)
                    yes = self.branch(t[2], nxt, stop, ctx)
                    no = self.branch(t[3], nxt, stop, ctx)
                    out += self.make_if(t[1], yes, no, b.term_line)
                else:
                    raise self.error("a loop header reached out of its loop", b.line)
            if nxt is None:
                return out
            jump = self.edge(nxt, stop, ctx)
            if jump is not None:
                return out + jump
            b = nxt
        return out

    def branch(self, b, follow, stop, ctx):
        if b is follow:
            return []
        jump = self.edge(b, stop, ctx)
        if jump is not None:
            return jump
        return self.walk(b, follow if follow is not None else stop, ctx)

    def edge(self, target, stop, ctx):
        """The statements an edge to target is ([continue], [break], an exit's code then break),
        [] at the region's end, or None when the walk goes on into target."""
        if target is stop:
            return []
        if ctx:
            loop = ctx[-1]
            if target is loop.header:
                return [self.node(ast.Continue)]
            if target is loop.follow:
                return [self.node(ast.Break)]
            if target in loop.inline:      # while c: ... else: E  ->  the test's exit runs E, then break
                return self.walk(target, loop.follow, ctx) + [self.node(ast.Break)]
            for c in ctx[:-1]:
                if target is c.header or target is c.follow:
                    raise self.error("a jump out of two loops at once", self.line)
        return None

    def if_follow(self, b, stop, ctx):
        """Where the two sides of b's test meet: the immediate post-dominator of b in its region,
        first counting only the paths that do not return or raise, then all paths; None when
        they do not meet before the region ends."""
        ends = set()
        if ctx:
            ends = {ctx[-1].header, ctx[-1].follow} - {None}
        if stop is not None:
            ends.add(stop)
        nodes, seen, todo = [], set(), [b]
        while todo:
            n = todo.pop()
            if n in seen:
                continue
            seen.add(n)
            nodes.append(n)
            if n is b or n not in ends:
                todo += n.succs
        for returns_count in (False, True):
            got = self._ipdom(b, nodes, ends, returns_count)
            if got is not None:
                return got
        return None

    @staticmethod
    def _ipdom(b, nodes, ends, returns_count):
        """b's immediate post-dominator among nodes; None (no constraint yet) is the top value."""
        pdom = {n: None for n in nodes}

        def of(s):
            return frozenset([s, "END"]) if s in ends else pdom[s]

        changed = True
        while changed:
            changed = False
            for n in reversed(nodes):
                if n in ends and n is not b:
                    continue
                if not n.succs:
                    new = frozenset([n, "END"]) if returns_count else None
                else:
                    sets = [of(s) for s in n.succs if of(s) is not None]
                    new = frozenset.intersection(*sets) | {n} if sets else None
                if new != pdom[n]:
                    pdom[n] = new
                    changed = True
        if pdom[b] is None:
            return None
        candidates = pdom[b] - {b, "END"}
        for c in candidates:          # the nearest: every other candidate post-dominates it
            if all(o is c or o in (of(c) or ()) for o in candidates):
                return c
        return None

    def make_if(self, test, yes, no, line):
        if not yes and not no:    # `if f(x): pass`: the call still runs
            return [self.node(ast.If, test, [self.node(ast.Pass, line=line)], [], line=line)] if _has(test, ast.Call) else []
        if not yes:
            test, yes, no = self.negate(test), no, []
        if (not no and len(yes) == 1 and isinstance(yes[0], ast.Raise) and _is_assert(yes[0].exc)
                and isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
            exc = yes[0].exc
            msg = exc.args[0] if isinstance(exc, ast.Call) and exc.args else None
            return [self.node(ast.Assert, test.operand, msg, line=line)]
        if no and _is_jump(no):
            return [self.node(ast.If, self.negate(test), no, [], line=line)] + yes
        if no and (_is_jump(yes) or _ends(yes)):
            return [self.node(ast.If, test, yes, [], line=line)] + no
        if no and _ends(no):
            return [self.node(ast.If, self.negate(test), no, [], line=line)] + yes
        return [self.node(ast.If, test, yes, no, line=line)]

    def negate(self, test):
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return test.operand
        return self.node(ast.UnaryOp, ast.Not(), test, line=test.lineno)

    def loop(self, loop, ctx):
        """The loop's statement (and, for a for ... else, its else clause)."""
        h, inner, line = loop.header, ctx + [loop], loop.header.line
        if h.term[0] == "for":
            first = h.term[2]
            stmts = [] if first is h else self.walk(first, None, inner)
            if h.for_target is None:
                raise self.error("a for loop whose target this decompiler cannot name", line)
            orelse = self.walk(loop.orelse, loop.follow, ctx) if loop.orelse is not None else []
            stmts = _tidy_end(stmts) or [self.node(ast.Pass, line=line)]
            return [self.node(ast.For, h.for_target, h.term[1], stmts, orelse, line=line)]
        stmts = _tidy_end(self.walk(h, None, inner))
        test = self.node(ast.Constant, True, line=line)
        if stmts and isinstance(stmts[0], ast.If) and stmts[0].body and isinstance(stmts[0].body[-1], ast.Break) \
                and len(stmts[0].body) == 1 and not stmts[0].orelse:
            test = self.negate(stmts[0].test)   # while True: if not c: break  ->  while c:
            stmts = stmts[1:]
        return [self.node(ast.While, test, stmts or [self.node(ast.Pass, line=line)], [], line=line)]


class _Loop:
    """A loop being rebuilt: header block, body (blocks), follow (the block after it), orelse (a
    for loop's else block), inline (while exits whose code runs before its break)."""

    def __init__(self, header, body):
        self.header, self.body = header, body
        self.follow = self.orelse = None
        self.inline = set()


def _tidy_end(stmts):
    """A loop body without its trailing `continue`."""
    while stmts and isinstance(stmts[-1], ast.Continue):
        stmts = stmts[:-1]
    return stmts


def _same_target(load, store):
    """`x = x + 1` with x the same place on both sides (an augmented assignment)."""
    def text(n):
        return ast.dump(n).replace("ctx=Load()", "").replace("ctx=Store()", "")
    return type(load) is type(store) and text(load) == text(store)


def _is_assert(exc):
    f = exc.func if isinstance(exc, ast.Call) else exc
    return getattr(f, "_pg_assert", False)


def _is_jump(stmts):
    return len(stmts) == 1 and isinstance(stmts[0], (ast.Return, ast.Raise, ast.Break, ast.Continue))


def _ends(stmts):
    """True when the statements never fall through (they return, raise, break or continue)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (ast.Return, ast.Raise, ast.Break, ast.Continue)):
        return True
    if isinstance(last, ast.If):
        return _ends(last.body) and _ends(last.orelse)
    return False


def _signature(b):
    """What a block that ends the function does, as text (two with the same text are copies)."""
    return tuple(ast.dump(s) for s in b.stmts) + (b.term[0],) + tuple(
        "" if x is None else ast.dump(x) for x in b.term[1:])


def _equivalent(a, b):
    """Two blocks that do the same thing (CPython copies small exit blocks)."""
    return a is b or (a.term[0] in ("return", "raise") and b.term[0] in ("return", "raise")
                      and _signature(a) == _signature(b))


def _dominators(order, entry):
    dom = {b: set(order) for b in order}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in order:
            if b is entry:
                continue
            preds = [p for p in b.preds if p in dom]
            new = set.intersection(*[dom[p] for p in preds]) | {b} if preds else {b}
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


def decompile(fn):
    """The ast.FunctionDef of fn rebuilt from its bytecode; DecompileError when it cannot be."""
    d = _Decompiler(fn)
    d.blocks()
    order = d.simulate()
    d.simplify(order)
    body = d.structure()
    code = fn.__code__
    if code.co_flags & 0x0C or code.co_kwonlyargcount or code.co_posonlyargcount:
        raise DecompileError("*args, **kwargs and keyword-only arguments", code.co_firstlineno)
    args = [d.node(ast.arg, name, line=code.co_firstlineno) for name in code.co_varnames[:code.co_argcount]]
    defaults = [d.const(v) for v in (fn.__defaults__ or ())]
    arguments = ast.arguments(posonlyargs=[], args=args, vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None,
                              defaults=defaults)
    name = fn.__name__ if fn.__name__.isidentifier() else "_lambda"
    kw = {"type_params": []} if sys.version_info >= (3, 12) else {}
    node = ast.FunctionDef(name=name, args=arguments, body=body or [ast.Pass()], decorator_list=[], returns=None,
                           type_comment=None, **kw)
    node.lineno = node.end_lineno = code.co_firstlineno
    node.col_offset = node.end_col_offset = 0
    _strip_final_return(node)
    ast.fix_missing_locations(node)
    return node


def _strip_final_return(fn_node):
    """The `return None` CPython adds at the end of every function is not written in the source."""
    body = fn_node.body
    if len(body) > 1 and isinstance(body[-1], ast.Return) and body[-1].value is None:
        fn_node.body = body[:-1]
