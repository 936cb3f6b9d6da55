"""numpy.einsum on pygpu arrays: the whole subscript grammar (implicit and explicit output, '...'
broadcasting, repeated indices within an operand, traces, the interleaved operand/sublist form),
lowered to array operations: a repeated index becomes a diagonal view, an index used by one
operand only is summed out first, and each pairwise contraction is one batched matrix product
(batch, kept and summed indices grouped by a transpose and a reshape). With more than two
operands the order is NumPy's einsum_path (greedy by default; `optimize=` may name another or
give a path), computed from the shapes alone. One operand summed over nothing gives NumPy's
writeable view of it (einsum('ii->i', a)[...] = 1 sets a's diagonal)."""
import numpy as _np

from . import _core
from ._products import _arrays, _into, _sum

_ndarray = _core.ndarray


# ------------------------------------------------------------------ parsing

def _letter(i):
    """The subscript letter of an interleaved-form integer label (0-25: A-Z, 26-51: a-z)."""
    if not 0 <= i < 52:
        raise ValueError(f"subscript is not within the valid range [0, 52)")
    return chr(ord("A") + i) if i < 26 else chr(ord("a") + i - 26)


def _sublist_str(sub):
    return "".join("..." if s is Ellipsis else _letter(int(s)) for s in sub)


def _split_operands(operands, none_message):
    """(subscripts string, [operands]) from either calling form; none_message: NumPy's ValueError for
    no operands at all."""
    if not operands:
        raise ValueError(none_message)
    if isinstance(operands[0], str):
        return operands[0], list(operands[1:])
    # einsum(op0, sublist0, op1, sublist1, ..., [sublistout])
    ops, subs = [], []
    rest = list(operands)
    while len(rest) >= 2:
        ops.append(rest.pop(0))
        subs.append(_sublist_str(rest.pop(0)))
    spec = ",".join(subs)
    if rest:
        spec += "->" + _sublist_str(rest[0])
    return spec, ops


def _parse_term(term, ndim, index, output=False):
    """The labels of one operand (or of the output): letters as their code points, the
    dimensions covered by '...' as -n .. -1 (right-aligned across operands)."""
    term = term.replace(" ", "")
    if term.count("...") > 1 or ("." in term.replace("...", "")):
        raise ValueError("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...')")
    before, ell, after = term.partition("...")
    for c in before + after:
        if not c.isalpha() or not c.isascii():
            raise ValueError(f"invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters")
    named = len(before) + len(after)
    if not ell:
        if output:
            return [ord(c) for c in before], False
        if named > ndim:
            raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {index}")
        if named < ndim:
            raise ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        return [ord(c) for c in before], False
    if output:
        return [ord(c) for c in before] + [None] + [ord(c) for c in after], True
    if named > ndim:
        raise ValueError(f"einstein sum subscripts string contains too many subscripts for operand {index}")
    n_ell = ndim - named
    return [ord(c) for c in before] + list(range(-n_ell, 0)) + [ord(c) for c in after], True


def _parse(spec, arrays):
    """([labels of each operand], output labels) with '...' expanded."""
    inputs, arrow, output = spec.partition("->")
    terms = inputs.split(",")
    if len(terms) > len(arrays):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts string")
    if len(terms) < len(arrays):
        raise ValueError("fewer operands provided to einstein sum function than specified in the subscripts string")
    labels = []
    n_ell = 0
    for i, (term, a) in enumerate(zip(terms, arrays)):
        lab, _ = _parse_term(term, a.ndim, i)
        labels.append(lab)
        n_ell = max(n_ell, -min([x for x in lab if x < 0], default=0))
    if arrow:
        if "->" in output:
            raise ValueError("einstein sum subscript string does not contain proper '->' output specified")
        out, has_ell = _parse_term(output, 0, 0, output=True)
        if has_ell:
            k = out.index(None)
            out = out[:k] + list(range(-n_ell, 0)) + out[k + 1:]
        elif n_ell:
            raise ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' "
                             "ellipsis provided to broadcast the extra dimensions.")
        seen = set()
        for x in out:
            if x in seen:
                raise ValueError(f"einstein sum subscripts string includes output subscript '{chr(x)}' "
                                 "multiple times")
            seen.add(x)
            if not any(x in lab for lab in labels):
                raise ValueError(f"einstein sum subscripts string included output subscript '{chr(x)}' which "
                                 "never appeared in an input")
    else:
        counts = {}
        for lab in labels:
            for x in lab:
                if x >= 0:
                    counts[x] = counts.get(x, 0) + 1
        out = list(range(-n_ell, 0)) + sorted(x for x, c in counts.items() if c == 1)
    return labels, out


# ------------------------------------------------------------------ lowering

def _take_diagonals(a, lab, index):
    """Repeated labels of one operand collapsed into one axis (a diagonal view)."""
    while True:
        dup = next((x for x in lab if lab.count(x) > 1), None)
        if dup is None:
            return a, lab
        p = lab.index(dup)
        q = lab.index(dup, p + 1)
        if a.shape[p] != a.shape[q]:
            raise ValueError(f"dimensions in operand {index} for collapsing index '{chr(dup)}' don't match "
                             f"({a.shape[p]} != {a.shape[q]})")
        a = _core.diagonal(a, 0, p, q)
        lab = [x for i, x in enumerate(lab) if i not in (p, q)] + [dup]


def _view_of_one_operand(arrays, labels, out_labels, dt):
    """NumPy's writeable view for one operand that nothing is summed over (einsum('ii->i', a) is a's
    diagonal, 'ij->ji' its transpose), or None: each output axis steps by the sum of the
    strides of the input axes with its label, inside the memory a's base holds."""
    if len(arrays) != 1:
        return None
    a, lab = arrays[0], list(labels[0])
    if a.dtype != dt or set(lab) != set(out_labels) or not a.flags["WRITEABLE"]:
        return None
    root = a.base if a.base is not None else a
    if not root.flags["C_CONTIGUOUS"]:
        return None
    shape = tuple(a.shape[lab.index(x)] for x in out_labels)
    strides = tuple(sum(st for st, y in zip(a.strides, lab) if y == x) for x in out_labels)
    return _core._as_strided(root, shape, strides, a.data_ptr - root.data_ptr)


def _label_sizes(ops, out_labels, originals):
    """Each label's size (broadcasting lengths of 1), or NumPy's broadcast error."""
    sizes = {}
    bad = False
    for a, lab in ops:
        for n, x in zip(a.shape, lab):
            s = sizes.get(x, 1)
            if s != 1 and n != 1 and s != n:
                bad = True
            if n != 1:
                sizes[x] = n
            else:
                sizes.setdefault(x, 1)
    if bad:
        # NumPy's iterator message: operands remapped onto (output labels, then summed labels)
        summed = sorted({x for _, lab in ops for x in lab if x not in out_labels})
        order = list(out_labels) + summed
        parts = []
        for (a, lab), orig in zip(ops, originals):
            dims = [str(a.shape[lab.index(x)]) if x in lab else "newaxis" for x in order]
            while dims and dims[0] == "newaxis":
                dims.pop(0)
            parts.append("(" + ",".join(str(s) for s in orig.shape) + (",)" if orig.ndim == 1 else ")")
                         + "->(" + ",".join(dims) + ") ")
        raise ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: "
                         + "".join(parts))
    return sizes


def _sum_out(a, lab, keep):
    """Labels of a not in `keep` summed out."""
    axes = tuple(i for i, x in enumerate(lab) if x not in keep)
    if not axes:
        return a, lab
    return _sum(a, axes), [x for x in lab if x in keep]


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _contract(a, la, b, lb, keep, sizes):
    """One pairwise contraction as a batched matrix product; returns (result, its labels)."""
    a, la = _sum_out(a, la, keep | set(lb))
    b, lb = _sum_out(b, lb, keep | set(la))
    batch = [x for x in la if x in lb and x in keep]
    summed = [x for x in la if x in lb and x not in keep]
    left = [x for x in la if x not in lb]
    right = [x for x in lb if x not in la]
    # a summed label of length 1 in one operand is broadcast against the other
    for x in summed:
        if a.shape[la.index(x)] != sizes[x]:
            a = _core.broadcast_to(a, tuple(sizes[y] if y == x else n for y, n in zip(la, a.shape)))
        if b.shape[lb.index(x)] != sizes[x]:
            b = _core.broadcast_to(b, tuple(sizes[y] if y == x else n for y, n in zip(lb, b.shape)))
    pa = _core.transpose(a, [la.index(x) for x in batch + left + summed])
    pb = _core.transpose(b, [lb.index(x) for x in batch + summed + right])
    nb = len(batch)
    left_shape = pa.shape[nb:nb + len(left)]
    right_shape = pb.shape[nb + len(summed):]
    k = _prod(pa.shape[nb + len(left):])
    ma = pa.reshape(pa.shape[:nb] + (_prod(left_shape), k))
    mb = pb.reshape(pb.shape[:nb] + (k, _prod(right_shape)))
    c = _core.matmul(ma, mb)
    return c.reshape(c.shape[:nb] + left_shape + right_shape), batch + left + right


def _path(spec, arrays, optimize):
    """The pairwise contraction order: NumPy's einsum_path over shape-only stand-ins."""
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return list(optimize[1:])
    how = "greedy" if optimize in (False, None, True) else optimize
    stand_ins = [_np.broadcast_to(_np.empty((), dtype=a.dtype), a.shape) for a in arrays]
    return list(_np.einsum_path(spec, *stand_ins, optimize=how)[0][1:])


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    """numpy.einsum: Einstein summation over pygpu arrays (see the module's docstring)."""
    spec, arrays = _split_operands(operands, "must specify the einstein sum subscripts string and at least one "
                                             "operand, or at least one operand and its corresponding subscripts list")
    arrays = list(_arrays(*arrays))
    labels, out_labels = _parse(spec, arrays)
    # NumPy's iterator takes the common dtype of every operand, out= among them (COMMON_DTYPE):
    # bool counted into a float out, int8 summed in an int16 out
    dt = _np.result_type(*[a.dtype for a in arrays], *([] if out is None else [out.dtype])) \
        if dtype is None else _np.dtype(dtype)
    if out is None and len(arrays) == 1 and set(labels[0]) == set(out_labels):
        # nothing summed over one operand: NumPy returns its view before it looks at dtype= and
        # casting=, so the result keeps the operand's dtype (a copy where pygpu cannot make the view)
        dt = arrays[0].dtype
    for i, a in enumerate(arrays):
        if not _np.can_cast(a.dtype, dt, casting=casting):
            raise TypeError(f"Iterator operand {i} dtype could not be cast from {a.dtype!r} to {dt!r} according "
                            f"to the rule '{casting}'")
    if out is not None and not _np.can_cast(dt, out.dtype, casting=casting):
        raise TypeError(f"Iterator requested dtype could not be cast from {dt!r} to {out.dtype!r}, the operand "
                        f"{len(arrays)} dtype, according to the rule '{casting}'")
    originals = arrays
    ops = [_take_diagonals(a.astype(dt, copy=False), list(lab), i)
           for i, (a, lab) in enumerate(zip(arrays, labels))]
    sizes = _label_sizes(ops, out_labels, originals)
    if out is not None:   # written as it is, never broadcast into (NumPy's iterator refuses it)
        if out.ndim != len(out_labels):
            raise ValueError(f"out parameter does not have the correct number of dimensions, has {out.ndim} but "
                             f"should have {len(out_labels)}")
        want = tuple(sizes[x] for x in out_labels)
        if out.shape != want:
            raise ValueError(f"out parameter has shape {out.shape}, the result {want}")
    view = _view_of_one_operand(arrays, labels, out_labels, dt) if out is None else None
    if view is not None:
        return view
    if len(ops) > 1:
        path = [(0, 1)] if len(ops) == 2 else _path(spec, arrays, optimize)
        for step in path:
            picked = [ops[i] for i in step]
            ops = [o for i, o in enumerate(ops) if i not in step]
            needed = set(out_labels)
            for _, lab in ops:
                needed |= set(lab)
            a, la = picked[0]
            for j in range(1, len(picked)):
                b, lb = picked[j]
                later = needed.union(*[set(l2) for _, l2 in picked[j + 1:]])
                a, la = _contract(a, la, b, lb, later, sizes)
            if len(picked) == 1:
                a, la = _sum_out(a, la, needed)
            ops.append((a, la))
    a, la = ops[0]
    a, la = _sum_out(a, la, set(out_labels))
    res = _core.transpose(a, [la.index(x) for x in out_labels]) if la else a
    # labels of length 1 here that other operands broadcast
    want = tuple(sizes[x] for x in out_labels)
    if res.shape != want:
        res = _core.broadcast_to(res, want)
    # a result that is still a view of an input (a transpose, a diagonal) or a broadcast is copied
    owners = {id(x.base if x.base is not None else x) for x in arrays}
    if id(res.base if res.base is not None else res) in owners or not res.flags["WRITEABLE"]:
        res = res.copy()
    return _into(out, res)


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """numpy.einsum_path for pygpu arrays (it needs only their shapes and dtypes)."""
    spec, arrays = _split_operands(operands, "No input operands")
    stand_ins = [_np.broadcast_to(_np.empty((), dtype=a.dtype), a.shape) if isinstance(a, _ndarray) else a
                 for a in arrays]
    return _np.einsum_path(spec, *stand_ins, optimize=optimize, einsum_call=einsum_call)
