"""The cache of compiled kernels: in memory for the process, on disk across processes.

The folder is ``$PYGPU_CACHE_DIR``, else ``$XDG_CACHE_HOME/pygpu``, else ``~/.cache/pygpu``
(``kernels/`` in it). Entries are named by a SHA-256 of everything the result depends on (the
source, options, target architecture, compiler and its version, pygpu's version and the
CUDA-on-CPU header), so a change of any of them is a new entry and stale ones are never used.
Files are written to a temporary name in the same folder and renamed into place, so a reader in
another process sees a whole file or none; processes compiling the same entry at once each write
the same bytes. A folder that cannot be written falls back to one of the process's own.
"""
import hashlib
import json
import os
import tempfile

_FORMAT = 1
_folder = None


def folder():
    """The folder that holds compiled kernels (created on first use)."""
    global _folder
    if _folder is not None:
        return _folder
    base = os.environ.get("PYGPU_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "pygpu")
    path = os.path.join(base, "kernels")
    try:
        os.makedirs(path, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=path, prefix=".probe-")
        probe.close()
    except OSError:
        path = tempfile.mkdtemp(prefix="pygpu-kernels-")
    _folder = path
    return path


def key(*parts):
    """A hex digest naming an entry: of pygpu's version, the format and the parts (JSON-able)."""
    from .. import __version__
    text = json.dumps([_FORMAT, __version__, list(parts)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def path(name):
    return os.path.join(folder(), name)


def write_atomically(name, write):
    """Creates entry `name` by calling write(temporary_path), then renaming it into place."""
    final = path(name)
    fd, tmp = tempfile.mkstemp(dir=folder(), prefix="." + name + ".", suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, final)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return final


_MAGIC = b"PYGPU-KERNEL 1\n"


def store_blob(name, meta, payload):
    """Stores bytes with a JSON-able description and a checksum that load_blob verifies."""
    head = json.dumps(dict(meta, sha256=hashlib.sha256(payload).hexdigest(), size=len(payload))).encode("utf-8")

    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(_MAGIC + head + b"\n" + payload)
    return write_atomically(name, write)


def load_blob(name):
    """(meta, payload) of an entry, or None when it is missing or damaged (then it is rebuilt)."""
    try:
        with open(path(name), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    head, sep, payload = data[len(_MAGIC):].partition(b"\n")
    try:
        meta = json.loads(head)
    except ValueError:
        return None
    if not sep or meta.get("size") != len(payload) or meta.get("sha256") != hashlib.sha256(payload).hexdigest():
        return None
    return meta, payload
