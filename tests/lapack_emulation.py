"""NumPy stand-ins for pygpu._core._cusolver_* (LAPACK's potrf, getrf, getrs, geqrf, orgqr,
gesvd, syevd with its conventions: column-major stacks worked on in place, 1-based pivots,
compact Householder reflectors, info per matrix), so that the CUDA code path of pygpu.linalg
(pygpu/linalg.py: stacks, transposes, masks, the SVD of a^H for wide matrices, slogdet from LU,
QR modes, lstsq from the SVD, solve's broadcasting) runs and is checked on the CPU. install()
patches them in and makes pygpu.linalg take its GPU path for CPU arrays."""
import numpy as np

import pygpu


def _mats(w):
    """The column-major matrices of a stack, as writeable NumPy views (batch flattened)."""
    a = np.asarray(w)
    assert a.flags.c_contiguous and a.flags.writeable
    return np.swapaxes(a.reshape((-1,) + a.shape[-2:]), -1, -2)


def _info(w, values):
    return pygpu.asarray(np.asarray(values, np.int32).reshape(w.shape[:-2]), device=w.device)


def potrf(w, lower):
    info = []
    for m in _mats(w):
        src = m if lower else np.conj(m.T)
        try:
            f = np.linalg.cholesky(np.tril(src) + np.conj(np.tril(src, -1).T))
        except np.linalg.LinAlgError:
            info.append(1)
            continue
        tri = np.tril(np.ones(m.shape, bool))
        if lower:
            m[tri] = f[tri]
        else:
            m[tri.T] = np.conj(f.T)[tri.T]
        info.append(0)
    return _info(w, info)


def getrf(w):
    mats = _mats(w)
    rows, cols = mats.shape[-2:]
    k = min(rows, cols)
    ipiv = np.zeros((len(mats), k), np.int64)
    info = []
    for b, m in enumerate(mats):
        bad = 0
        for j in range(k):
            p = j + int(np.argmax(np.abs(m[j:, j])))
            ipiv[b, j] = p + 1
            m[[j, p]] = m[[p, j]]
            if m[j, j] == 0:
                bad = bad or j + 1
                continue
            m[j + 1:, j] /= m[j, j]
            m[j + 1:, j + 1:] -= np.outer(m[j + 1:, j], m[j, j + 1:])
        info.append(bad)
    return pygpu.asarray(ipiv.reshape(w.shape[:-2] + (k,)), device=w.device), _info(w, info)


def getrs(lu, ipiv, b, trans):
    assert trans == 0
    piv = np.asarray(ipiv).reshape(-1, np.asarray(ipiv).shape[-1])
    for m, x, p in zip(_mats(lu), _mats(b), piv):
        for j, q in enumerate(p):
            x[[j, q - 1]] = x[[q - 1, j]]
        lower = np.tril(m, -1) + np.eye(len(m))
        y = np.linalg.solve(lower, x)
        with np.errstate(all="ignore"):
            x[...] = np.linalg.solve(np.triu(m), y) if np.all(np.diag(m) != 0) else np.nan
    return _info(b, [0] * len(piv))


def _reflector(x):
    """LAPACK's larfg: (beta, v with v[0] = 1, tau) with (I - tau v v^H)^H x = beta e1."""
    alpha = x[0]
    xnorm = np.linalg.norm(x[1:])
    if xnorm == 0 and np.imag(alpha) == 0:
        v = np.zeros_like(x)
        v[0] = 1
        return alpha, v, 0.0
    beta = -np.copysign(np.sqrt(abs(alpha) ** 2 + xnorm ** 2), np.real(alpha))
    tau = (beta - alpha) / beta
    v = x / (alpha - beta)
    v[0] = 1
    return beta, v, tau


def geqrf(w):
    mats = _mats(w)
    rows, cols = mats.shape[-2:]
    k = min(rows, cols)
    tau = np.zeros((len(mats), k), np.asarray(w).dtype)
    for b, m in enumerate(mats):
        for j in range(k):
            beta, v, t = _reflector(m[j:, j].copy())
            tau[b, j] = t
            # A := H^H A with H = I - t v v^H
            m[j:, j + 1:] -= np.conj(t) * np.outer(v, np.conj(v) @ m[j:, j + 1:])
            m[j, j] = beta
            m[j + 1:, j] = v[1:]
    return pygpu.asarray(tau.reshape(w.shape[:-2] + (k,)), device=w.device), _info(w, [0] * len(mats))


def orgqr(w, tau):
    t = np.asarray(tau).reshape(-1, np.asarray(tau).shape[-1])
    for m, tb in zip(_mats(w), t):
        rows, cols = m.shape
        refl = m.copy()
        q = np.eye(rows, cols, dtype=m.dtype)
        for j in reversed(range(len(tb))):
            v = np.zeros(rows, m.dtype)
            v[j] = 1
            v[j + 1:] = refl[j + 1:, j]
            q -= tb[j] * np.outer(v, np.conj(v) @ q)
        m[...] = q
    return _info(w, [0] * len(t))


def gesvd(w, compute_uv, full):
    a = np.asarray(w)
    mats = _mats(w)
    rows, cols = mats.shape[-2:]
    assert rows >= cols
    batch = w.shape[:-2]
    if not compute_uv:
        s = np.linalg.svd(mats, compute_uv=False)
        mats[...] = np.nan  # cuSOLVER destroys its input
        return pygpu.asarray(s.reshape(batch + (cols,)), device=w.device), None, None, _info(w, [0] * len(mats))
    u, s, vh = np.linalg.svd(mats, full_matrices=full)
    mats[...] = np.nan
    ust = np.ascontiguousarray(np.swapaxes(u, -1, -2)).reshape(batch + (u.shape[-1], rows))
    vst = np.ascontiguousarray(np.swapaxes(vh, -1, -2)).reshape(batch + (cols, cols))
    dev = w.device
    del a
    return (pygpu.asarray(s.reshape(batch + (cols,)), device=dev), pygpu.asarray(ust, device=dev),
            pygpu.asarray(vst, device=dev), _info(w, [0] * len(mats)))


def syevd(w, lower, vectors):
    mats = _mats(w)
    ev, vecs = np.linalg.eigh(mats, UPLO="L" if lower else "U")
    if vectors:
        mats[...] = vecs
    n = mats.shape[-1]
    return pygpu.asarray(ev.reshape(w.shape[:-2] + (n,)), device=w.device), _info(w, [0] * len(mats))


def install(monkeypatch):
    for name, fn in [("potrf", potrf), ("getrf", getrf), ("getrs", getrs), ("geqrf", geqrf), ("orgqr", orgqr),
                     ("gesvd", gesvd), ("syevd", syevd)]:
        monkeypatch.setattr(pygpu._core, "_cusolver_" + name, fn)
    monkeypatch.setattr(pygpu.linalg, "_on_cpu", lambda a: False)
