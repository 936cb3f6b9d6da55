"""The VM emitter: a typed IR Function to a VmProgram (csrc/kernels/vm.h explains the machine).

Registers are slots of 8 bytes per lane (complex128 takes two). Parameters, locals and constants
keep one register each for the whole program; expression temporaries are allocated before their
operands are released, so a result never overlaps an operand it is computed from.

Control flow becomes masks, because every lane of a block runs every instruction it reaches:
  - the current mask says which lanes execute a statement (None: all lanes of the block);
  - a variable assigned under a mask gets a masked move, computed values go to temporaries;
  - if: the branch's mask is current & test (and current & ~test for else); a branch no lane
    takes is jumped over;
  - loops: the loop mask loses the lanes whose test fails, that break or return; the loop ends
    when it is empty. continue removes lanes until the end of the iteration;
  - return stores the value into the result under the current mask and removes the lanes from
    every mask after it; lanes that have left a region are removed from its mask after any
    statement that can exit it.
Conditional expressions and `and`/`or` are computed eagerly (both sides, then a select) unless a
side calls a function with loops, which might not end for lanes the condition excludes: those
are evaluated under masks like an if. Calls of other functions are inlined."""
import struct

import numpy as np

from .. import _core
from . import ir, optable
from . import types as T

_OPCODES = None


def opcodes():
    global _OPCODES
    if _OPCODES is None:
        _OPCODES = _core._vm_opcodes()
    return _OPCODES


_INSN = struct.Struct("<5H")


class _FuncContext:
    """An inlined (or the top) function: its result register and the mask of lanes that returned."""

    def __init__(self, ret, ret_type, ret_mask):
        self.ret = ret
        self.ret_type = ret_type
        self.ret_mask = ret_mask


class _LoopContext:
    def __init__(self, brk, cont):
        self.brk = brk
        self.cont = cont


class Emitter:
    def __init__(self):
        self.code = []
        self.nslots = 0
        self.free_slots = set()
        self.consts = {}        # (type, bytes) -> register
        self.const_list = []    # (register, type number, value)
        self.var_regs = {}      # Var -> register
        self.mask = None        # the current mask register, None: every lane
        self.func = None
        self.loop = None
        self.memo = None        # common subexpressions of the expression being emitted: key -> register
        self.repeated = set()   # ... the keys that occur more than once in it

    # -------------------------------------------------------------- registers

    def alloc(self, t):
        """A register for a value of type t (two slots for complex128)."""
        need = 2 if t.itemsize > 8 else 1
        for r in sorted(self.free_slots):
            if need == 1 or (r + 1) in self.free_slots:
                for k in range(need):
                    self.free_slots.discard(r + k)
                return r
        r = self.nslots
        self.nslots += need
        return r

    def release(self, r, t):
        for k in range(2 if t.itemsize > 8 else 1):
            self.free_slots.add(r + k)

    def const(self, value, t):
        if isinstance(value, np.generic):
            value = value.item()
        key = (t, np.array(value, dtype=t).tobytes())
        r = self.consts.get(key)
        if r is None:  # slots of its own: written once per thread, before the program runs
            r = self.consts[key] = self.nslots
            self.nslots += 2 if t.itemsize > 8 else 1
            self.const_list.append((r, T.NUMBER[t], value))
        return r

    def var(self, v):
        r = self.var_regs.get(v)
        if r is None:
            r = self.var_regs[v] = self.alloc(v.type)
        return r

    def allocate_locals(self, fn):
        """A register for every parameter and local, before any code: a register first written
        inside a loop must not be one a temporary of the same loop uses."""
        return [self.var(p) for p in fn.params] + [self.var(v) for v in fn.locals]

    # -------------------------------------------------------------- instructions

    def emit(self, op, dst=0, a=0, b=0, c=0):
        self.code.append([op, dst, a, b, c])
        return len(self.code) - 1

    def op(self, name, dst, *args):
        regs = list(args) + [0] * (3 - len(args))
        self.emit(opcodes()[name], dst, *regs)

    def move(self, dst, src, t, mask=None):
        if dst == src:
            return
        if mask is None:
            self.emit(opcodes()["move"], dst, src, 0, t.itemsize)
        else:
            self.emit(opcodes()["move_masked"], dst, src, mask, t.itemsize)

    def label(self):
        return len(self.code)

    def jump_if_none(self, mask):
        return self.emit(opcodes()["jump_if_none"], 0, mask, 0)

    def jump(self):
        return self.emit(opcodes()["jump"], 0, 0)

    def patch(self, at, target):
        insn = self.code[at]
        if insn[0] == opcodes()["jump"]:
            insn[2] = target
        else:
            insn[3] = target

    # masks

    def mask_and(self, m, test, negate=False):
        """A new mask register: m & test (m None: every lane), or m & ~test."""
        r = self.alloc(T.BOOL)
        if negate:
            self.op("logical_not_b", r, test)
            if m is not None:
                self.op("logical_and_b", r, r, m)
        elif m is None:
            self.move(r, test, T.BOOL)
        else:
            self.op("logical_and_b", r, m, test)
        return r

    def all_lanes(self):
        r = self.alloc(T.BOOL)
        self.move(r, self.const(True, T.BOOL), T.BOOL)
        return r

    def no_lanes(self):
        r = self.alloc(T.BOOL)
        self.move(r, self.const(False, T.BOOL), T.BOOL)
        return r

    def remove_exited(self, entry, exits):
        """entry & ~(every exit mask in exits): the lanes still running (a new register)."""
        r = self.alloc(T.BOOL)
        if entry is None:
            self.move(r, self.const(True, T.BOOL), T.BOOL)
        else:
            self.move(r, entry, T.BOOL)
        tmp = self.alloc(T.BOOL)
        for x in exits:
            self.op("logical_not_b", tmp, x)
            self.op("logical_and_b", r, r, tmp)
        self.release(tmp, T.BOOL)
        return r

    # -------------------------------------------------------------- expressions

    def value(self, e):
        """(register holding e, whether it is a temporary the caller releases)."""
        if isinstance(e, ir.Const):
            return self.const(e.value, e.type), False
        if isinstance(e, ir.Load):
            return self.var(e.var), False
        memo_key = None
        if self.memo is not None:
            key = _key(e)
            if key in self.memo:
                return self.memo[key], False
            if key in self.repeated:
                memo_key = key
        if memo_key is None and _one_instruction(e):
            return self.one_instruction(e), True
        r = self.alloc(e.type)
        self.compute(e, r)
        if memo_key is not None:
            self.memo[memo_key] = r  # released with the expression
            return r, False
        return r, True

    def one_instruction(self, e):
        """A node computed by one instruction into a new temporary: its operands first, then the
        result in the register of an operand temporary at least as wide (read lane by lane
        before it is written there), else a fresh one; so a chain of operations reuses a few
        registers instead of holding one per level."""
        kids = ir.children(e) if not isinstance(e, (ir.Select, ir.IfExp)) else (e.cond, e.a, e.b)
        args = [self.value(k) for k in kids]
        dst = None
        for (r, temp), k in zip(args, kids):
            if temp and dst is None and k.type.itemsize >= e.type.itemsize:
                dst = r
        if dst is None:
            dst = self.alloc(e.type)
        self.instruction(e, dst, [r for r, _ in args])
        for (r, temp), k in zip(args, kids):
            if temp and r != dst:
                self.release(r, k.type)
        return dst

    def instruction(self, e, dst, regs):
        """The one instruction of a node _one_instruction() takes, its operands in regs."""
        if isinstance(e, ir.Op):
            self.op(optable.loop_name(e.op, tuple(a.type for a in e.args)), dst, *regs)
        elif isinstance(e, ir.Cast):
            self.emit(opcodes()["cast"], dst, regs[0], T.NUMBER[e.value.type], T.NUMBER[e.type])
        elif isinstance(e, (ir.Select, ir.IfExp)):
            self.op(optable.loop_name("_where", (T.BOOL, e.a.type, e.b.type)), dst, *regs)
        elif isinstance(e, ir.MakeComplex):
            self.emit(opcodes()["complex"], dst, regs[0], regs[1], T.NUMBER[e.type])
        else:  # Real, Imag
            self.emit(opcodes()["real" if isinstance(e, ir.Real) else "imag"], dst, regs[0], 0,
                      T.NUMBER[e.value.type])

    def expression(self, e, into=None):
        """Emits a whole expression (a statement's), computing each repeated pure subexpression
        once; into: its register, or None for value()'s (register, temporary)."""
        saved = self.memo, self.repeated
        counts = {}
        _count_keys(e, counts)
        self.repeated = {k for k, n in counts.items() if n > 1}
        self.memo = {} if self.repeated else None
        types = {}
        if self.repeated:
            _key_types(e, types)
        if into is None:
            result = self.value(e)
        else:
            self.compute(e, into)
            result = None
        if self.memo:
            for k, r in self.memo.items():
                self.release(r, types[k])
        self.memo, self.repeated = saved
        return result

    def done(self, reg_temp, t):
        r, temp = reg_temp
        if temp:
            self.release(r, t)

    def compute(self, e, dst):
        """Evaluates e into register dst (which no operand of e occupies, unless it is e's own
        variable, read lane by lane before it is written)."""
        if isinstance(e, (ir.Const, ir.Load)):
            self.move(dst, self.value(e)[0], e.type)
        elif _one_instruction(e):
            kids = ir.children(e) if not isinstance(e, (ir.Select, ir.IfExp)) else (e.cond, e.a, e.b)
            args = [self.value(k) for k in kids]
            self.instruction(e, dst, [r for r, _ in args])
            for k, rt in zip(kids, args):
                self.done(rt, k.type)
        elif isinstance(e, ir.IfExp):
            self.lazy_ifexp(e.cond, e.a, e.b, dst)
        elif isinstance(e, ir.BoolOp):
            self.boolop(e, dst)
        elif isinstance(e, ir.Call):
            self.inline(e, dst)
        else:
            raise TypeError(f"cannot emit {e!r}")

    def lazy_ifexp(self, cond, a, b, dst):
        """a if cond else b, each side evaluated only for the lanes that take it."""
        c = self.value(cond)
        outer = self.mask
        for side, negate in ((a, False), (b, True)):
            m = self.mask_and(outer, c[0], negate)
            skip = self.jump_if_none(m)
            self.mask = m
            saved = self.memo, self.repeated
            self.memo, self.repeated = None, set()  # a skipped side computes nothing to share
            v = self.value(side)
            self.memo, self.repeated = saved
            self.move(dst, v[0], side.type, m)
            self.done(v, side.type)
            self.mask = outer
            self.patch(skip, self.label())
            self.release(m, T.BOOL)
        self.done(c, T.BOOL)

    def boolop(self, e, dst):
        lazy = any(ir.calls_with_control_flow(v) for v in e.values[1:])
        if e.type == T.BOOL and not lazy:
            name = "logical_and_b" if e.op == "and" else "logical_or_b"
            first = self.value(e.values[0])
            acc = self.alloc(T.BOOL)
            self.move(acc, first[0], T.BOOL)
            self.done(first, T.BOOL)
            for v in e.values[1:]:
                rv = self.value(v)
                self.op(name, acc, acc, rv[0])
                self.done(rv, T.BOOL)
            self.move(dst, acc, T.BOOL)
            self.release(acc, T.BOOL)
            return
        # Python's value semantics: `a and b` is b if a is true else a; `a or b` is a if a is true
        expr = e.values[-1]
        for v, test in zip(reversed(e.values[:-1]), reversed(e.tests)):
            if e.op == "and":
                expr = ir.IfExp(test, expr, v, e.type)
            else:
                expr = ir.IfExp(test, v, expr, e.type)
        if lazy:
            self.compute_lazy_chain(expr, dst)
        else:
            self.compute(expr, dst)

    def compute_lazy_chain(self, e, dst):
        if isinstance(e, ir.IfExp):
            self.lazy_ifexp(e.cond, e.a, e.b, dst)
        else:
            self.compute(e, dst)

    def inline(self, call, dst):
        fn = call.function
        args = [self.value(a) for a in call.args]  # in the caller's variables
        saved_vars, saved_func, saved_loop = self.var_regs, self.func, self.loop
        self.var_regs = {}
        self.allocate_locals(fn)
        for p, a, v in zip(fn.params, call.args, args):  # into the callee's parameters
            self.move(self.var(p), v[0], p.type)
            self.done(v, a.type)
        ret_mask = self.no_lanes() if _returns_inside(fn.body) else None
        self.func = _FuncContext(dst, fn.return_type, ret_mask)
        self.loop = None
        self.block(fn.body, self.mask)
        for v, r in self.var_regs.items():
            self.release(r, v.type)
        if ret_mask is not None:
            self.release(ret_mask, T.BOOL)
        self.var_regs, self.func, self.loop = saved_vars, saved_func, saved_loop

    # -------------------------------------------------------------- statements

    def exits(self, s):
        """The masks a statement may add lanes to that matter after it in its block."""
        kinds = _exit_kinds(s)
        out = []
        if "return" in kinds and self.func.ret_mask is not None:
            out.append(self.func.ret_mask)
        if self.loop is not None:
            if "break" in kinds:
                out.append(self.loop.brk)
            if "continue" in kinds:
                out.append(self.loop.cont)
        return out

    def block(self, stmts, entry):
        """Statements run by the lanes of mask `entry` (None: all)."""
        saved = self.mask
        self.mask = entry
        owned = []
        for i, s in enumerate(stmts):
            self.stmt(s)
            if isinstance(s, (ir.Return, ir.Break, ir.Continue)) or i == len(stmts) - 1:
                break
            exits = self.exits(s)
            if exits:  # the lanes that left through s leave the rest of the block
                m = self.remove_exited(self.mask, exits)
                owned.append(m)
                self.mask = m
        for m in owned:
            self.release(m, T.BOOL)
        self.mask = saved

    def assign(self, var, value):
        r = self.var(var)
        if self.mask is None:
            self.expression(value, r)
        else:
            v = self.expression(value)
            self.move(r, v[0], var.type, self.mask)
            self.done(v, value.type)

    def stmt(self, s):
        if isinstance(s, ir.Assign):
            self.assign(s.target, s.value)
        elif isinstance(s, ir.Return):
            f = self.func
            if self.mask is None:
                self.expression(s.value, f.ret)
            else:
                v = self.expression(s.value)
                self.move(f.ret, v[0], f.ret_type, self.mask)
                self.done(v, s.value.type)
            if f.ret_mask is not None:
                if self.mask is None:
                    self.move(f.ret_mask, self.const(True, T.BOOL), T.BOOL)
                else:
                    self.op("logical_or_b", f.ret_mask, f.ret_mask, self.mask)
        elif isinstance(s, (ir.Break, ir.Continue)):
            target = self.loop.brk if isinstance(s, ir.Break) else self.loop.cont
            self.op("logical_or_b", target, target, self.mask)
        elif isinstance(s, ir.If):
            self.if_stmt(s)
        elif isinstance(s, ir.While):
            self.loop_stmt(s, None)
        elif isinstance(s, ir.ForRange):
            self.loop_stmt(s, s)
        else:
            raise TypeError(f"cannot emit {s!r}")

    def if_stmt(self, s):
        outer = self.mask
        test = self.expression(s.test)
        m = self.mask_and(outer, test[0])
        skip = self.jump_if_none(m)
        self.block(s.body, m)
        self.release(m, T.BOOL)
        if s.orelse:
            end_of_then = self.label()
            m = self.mask_and(outer, test[0], negate=True)
            self.patch(skip, end_of_then)
            skip = self.jump_if_none(m)
            self.block(s.orelse, m)
            self.release(m, T.BOOL)
        self.patch(skip, self.label())
        self.done(test, T.BOOL)

    def loop_stmt(self, s, rng):
        outer, saved_loop = self.mask, self.loop
        kinds = _exit_kinds_inside(s.body)
        brk = self.no_lanes() if "break" in kinds else None
        cont = self.alloc(T.BOOL) if "continue" in kinds else None
        if rng is not None:  # the counter, the bound and the step, evaluated once
            counter, stop, step = (self.alloc(T.INT64) for _ in range(3))
            self.expression(rng.start, counter)
            self.expression(rng.stop, stop)
            self.expression(rng.step, step)
        lm = self.all_lanes() if outer is None else self.mask_and(None, outer)
        top = self.label()
        if rng is None:
            test = self.expression(s.test)
        else:
            test = (self.range_test(counter, stop, step, rng.step), True)
        self.op("logical_and_b", lm, lm, test[0])
        self.done(test, T.BOOL)
        leave = self.jump_if_none(lm)
        if rng is not None:
            self.move(self.var(rng.var), counter, T.INT64, lm)
        if cont is not None:
            self.move(cont, self.const(False, T.BOOL), T.BOOL)
        self.loop = _LoopContext(brk if brk is not None else 0, cont if cont is not None else 0)
        self.block(s.body, lm)
        self.loop = saved_loop
        gone = [m for m in (brk, self.func.ret_mask if "return" in kinds else None) if m is not None]
        if gone:
            tmp = self.alloc(T.BOOL)
            for m in gone:
                self.op("logical_not_b", tmp, m)
                self.op("logical_and_b", lm, lm, tmp)
            self.release(tmp, T.BOOL)
        if rng is not None:
            self.op("add_i64", counter, counter, step)
        self.patch(self.jump(), top)
        self.patch(leave, self.label())
        if s.orelse:  # the lanes that ended the loop without break or return
            exits = [m for m in (brk, self.func.ret_mask if "return" in kinds else None) if m is not None]
            m = self.remove_exited(outer, exits) if exits else outer
            self.block(s.orelse, m)
            if exits:
                self.release(m, T.BOOL)
        self.release(lm, T.BOOL)
        if brk is not None:
            self.release(brk, T.BOOL)
        if cont is not None:
            self.release(cont, T.BOOL)
        if rng is not None:
            for r in (counter, stop, step):
                self.release(r, T.INT64)

    def range_test(self, counter, stop, step, step_expr):
        """counter before stop in the step's direction (a new bool register)."""
        r = self.alloc(T.BOOL)
        if isinstance(step_expr, ir.Const):
            self.op("less_i64" if step_expr.value > 0 else "greater_i64", r, counter, stop)
            return r
        up, down, pos, neg = (self.alloc(T.BOOL) for _ in range(4))
        zero = self.const(0, T.INT64)
        self.op("less_i64", up, counter, stop)
        self.op("greater_i64", down, counter, stop)
        self.op("greater_i64", pos, step, zero)
        self.op("less_i64", neg, step, zero)
        self.op("logical_and_b", up, up, pos)
        self.op("logical_and_b", down, down, neg)
        self.op("logical_or_b", r, up, down)
        for x in (up, down, pos, neg):
            self.release(x, T.BOOL)
        return r


_PURE = (ir.Op, ir.Cast, ir.Real, ir.Imag, ir.MakeComplex, ir.Select)


def _one_instruction(e):
    """True when e is computed by one instruction from its operands (an IfExp too, unless a side
    calls a function with loops: then it needs masks)."""
    if isinstance(e, _PURE):
        return True
    return isinstance(e, ir.IfExp) and not (ir.calls_with_control_flow(e.a) or ir.calls_with_control_flow(e.b))


def _key(e):
    """A structural key of an expression (equal keys: equal values within one statement)."""
    if isinstance(e, ir.Const):
        return ("c", e.type.str, np.array(e.value.item() if isinstance(e.value, np.generic) else e.value,
                                          dtype=e.type).tobytes())
    if isinstance(e, ir.Load):
        return ("v", id(e.var))
    tag = (type(e).__name__, getattr(e, "op", None), e.type.str)
    return tag + tuple(_key(c) for c in ir.children(e))


def _count_keys(e, counts):
    """Occurrences of each pure compound subexpression, outside sides evaluated lazily."""
    if isinstance(e, _PURE):
        k = _key(e)
        counts[k] = counts.get(k, 0) + 1
        if counts[k] > 1:
            return  # its operands are shared with it
    if isinstance(e, (ir.IfExp, ir.BoolOp, ir.Call)):
        if isinstance(e, ir.IfExp):
            _count_keys(e.cond, counts)
        return
    for c in ir.children(e):
        _count_keys(c, counts)


def _key_types(e, types):
    if isinstance(e, _PURE):
        types[_key(e)] = e.type
    for c in ir.children(e):
        _key_types(c, types)


def _exit_kinds(s):
    """'return', 'break', 'continue' that a statement may take, for the block it is in (a loop's
    own break and continue stay inside it)."""
    if isinstance(s, ir.Return):
        return {"return"}
    if isinstance(s, ir.Break):
        return {"break"}
    if isinstance(s, ir.Continue):
        return {"continue"}
    if isinstance(s, ir.If):
        return _exit_kinds_inside(s.body) | _exit_kinds_inside(s.orelse)
    if isinstance(s, (ir.While, ir.ForRange)):
        inner = _exit_kinds_inside(s.body) | _exit_kinds_inside(s.orelse)
        return {"return"} & inner | (_exit_kinds_inside(s.orelse) - {"return"})
    return set()


def _exit_kinds_inside(stmts):
    out = set()
    for s in stmts:
        out |= _exit_kinds(s)
    return out


def _returns_inside(stmts):
    """True when a return sits inside control flow (so lanes can return at different points)."""
    for s in stmts:
        if isinstance(s, ir.If) and "return" in (_exit_kinds_inside(s.body) | _exit_kinds_inside(s.orelse)):
            return True
        if isinstance(s, (ir.While, ir.ForRange)) and "return" in _exit_kinds(s):
            return True
    return False


def emit(fn):
    """The VmProgram of a typed Function: inputs are its parameters, the output its result."""
    e = Emitter()
    params = e.allocate_locals(fn)[:len(fn.params)]
    ret = e.alloc(fn.return_type)
    ret_mask = e.no_lanes() if _returns_inside(fn.body) else None
    e.func = _FuncContext(ret, fn.return_type, ret_mask)
    e.block(fn.body, None)
    code = b"".join(_INSN.pack(*insn) for insn in e.code)
    in_types = [T.NUMBER[p.type] for p in fn.params]
    program = _core.VmProgram(code, e.const_list, e.nslots, params, in_types, ret, T.NUMBER[fn.return_type])
    # what the compiled tier (pygpu/_jit/tier.py) translates to C: the checked program's own text
    program._tier_ir = (tuple(tuple(i) for i in e.code), tuple(e.const_list), e.nslots, tuple(params),
                        tuple(in_types), ret, T.NUMBER[fn.return_type], fn.name)
    return program


def listing(fn):
    """The instructions emit(fn) makes, one per line (for tests and debugging)."""
    e = Emitter()
    params = e.allocate_locals(fn)[:len(fn.params)]
    ret = e.alloc(fn.return_type)
    ret_mask = e.no_lanes() if _returns_inside(fn.body) else None
    e.func = _FuncContext(ret, fn.return_type, ret_mask)
    e.block(fn.body, None)
    names = {v: k for k, v in opcodes().items()}
    lines = [f"inputs {params} -> r{ret}; constants " + ", ".join(f"r{r}={v!r}" for r, _, v in e.const_list)]
    for pc, (op, dst, a, b, c) in enumerate(e.code):
        lines.append(f"{pc:4d}  {names[op]:18s} r{dst} r{a} r{b} {c}")
    return "\n".join(lines)
