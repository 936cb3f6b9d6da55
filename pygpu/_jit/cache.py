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
import re
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


_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)


def include_dirs_of(options):
    """The folders a compiler's options add to the include path (-I dir, -Idir,
    --include-path=dir, --include-path dir), in order."""
    dirs, options = [], list(options)
    for i, o in enumerate(options):
        o = str(o)
        if o in ("-I", "--include-path") and i + 1 < len(options):
            dirs.append(str(options[i + 1]))
        elif o.startswith("--include-path="):
            dirs.append(o.split("=", 1)[1])
        elif o.startswith("-I") and len(o) > 2:
            dirs.append(o[2:])
    return dirs


def included_files_digest(source, options, limit=512):
    """A digest of the user's headers the source includes (found in the options' include folders
    or the working directory), followed through their own includes: an edited header is a new
    entry. Toolkit and system headers are not among those folders; their version is in the key."""
    dirs = include_dirs_of(options) + [os.getcwd()]
    digest, seen, todo = hashlib.sha256(), set(), [source]
    while todo and len(seen) < limit:
        for name in _INCLUDE.findall(todo.pop()):
            for d in dirs:
                p = os.path.join(d, name)
                if p in seen or not os.path.isfile(p):
                    continue
                seen.add(p)
                try:
                    with open(p, "rb") as f:
                        data = f.read()
                except OSError:
                    continue
                digest.update(p.encode() + b"\0" + hashlib.sha256(data).digest())
                todo.append(data.decode("utf-8", "replace"))
                break
    return digest.hexdigest() if seen else ""


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
