"""The CUDA step of the build: compiles each csrc/kernels/*.cu into a CUDA module and generates
csrc/runtime/fatbin.c, which embeds them all in the extension.

Two toolchains (PYGPU_CUDA_TOOLCHAIN): `nvcc` (the default, for source builds: what follows) and
`nvrtc12` (build_nvrtc.py: NVRTC 12 from pip, a cubin per architecture, for release wheels whose
kernels load on CUDA 12.0+ drivers).

- One module per .cu file (elementwise.cu: the op-table loops; the kernel families that follow
  add theirs). The CUDA backend loads a module on a device the first time one of its kernels is
  needed (runtime/fatbin.h). Modules compile in parallel, and each is cached on its own, so an
  edit of one family's kernels re-runs nvcc for that module only.
- nvcc is $PYGPU_NVCC, else looked up on PATH, then in $CUDA_HOME/bin (or $CUDA_PATH/bin), then
  /usr/local/cuda/bin. The driver must be at least the toolkit's major version (CUDA 13: R580+).
  Without it, or with PYGPU_NO_CUDA=1, fatbin.c embeds nothing and the extension is CPU-only.
- Each fatbin holds SASS for sm_75 sm_80 sm_90 and the newer families this nvcc supports
  (sm_100, sm_120, ...), plus PTX of the newest for GPUs that come later. sm_86 and sm_89 GPUs
  run the sm_80 SASS natively (SASS is compatible within a major version), so they need no
  cubin of their own: each extra one costs nvcc time and fatbin size.
  PYGPU_CUDA_ARCHS="80;90" replaces the list (PTX is then that of the newest listed).
- A module's fatbin is cached as build/cuda-cache/<name>-<sha256>.fatbin, keyed by its .cu file and
  every header it includes from csrc/kernels (followed through `#include "..."`), the nvcc flags
  and the nvcc version.
- fatbin.c pulls each file in with the assembler's .incbin (fast for megabytes, unlike a C array)
  and defines the module table of runtime/fatbin.h: pg_fatbin_modules (each with its images: one
  fatbin from nvcc, a cubin per architecture and PTX from NVRTC), pg_fatbin_nmodules,
  pg_fatbin_size (all images), pg_fatbin_archs, pg_cuda_toolchain and pg_cuda_build_version
  (CUDA_VERSION style: 13000 is 13.0).
"""
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import lzma
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_DIR = os.path.join(HERE, "csrc", "kernels")

# SASS always built when the toolkit supports it; newer families (sm_X0, X >= 10) are added below.
BASE_ARCHS = [75, 80, 90, 100, 120]
# --fmad=false: no contraction of a*b+c into fma, so the kernels round as the CPU build does
# (linspace's floor and complex z * conj(z) differed); code that wants an fma says fma()
NVCC_FLAGS = ["-fatbin", "-O3", "-std=c++17", "--fmad=false", "--threads", "0", "-Xfatbin", "-compress-all"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
# an extern "C" kernel as nvcc's preprocessor writes it, with any attributes (__launch_bounds__
# becomes __attribute__((launch_bounds(...)))) between `void` and the name
KERNEL = re.compile(r'extern\s+"C"\s+__attribute__\(\(global\)\)[^;{(]*?\bvoid\s+'
                    r'(?:__attribute__\(\((?:[^()]|\([^()]*\))*\)\)\s*)*(\w+)\s*\(')


def log(msg):
    print("pygpu build: " + msg, flush=True)


def find_nvcc():
    """The nvcc path, or None. PYGPU_NVCC names one explicitly (e.g. a CUDA 12 toolkit's, so that
    the kernels run on 12.x drivers: a fatbin from CUDA 13 needs a 13.x driver)."""
    explicit = os.environ.get("PYGPU_NVCC")
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise RuntimeError(f"PYGPU_NVCC={explicit} is not an executable nvcc")
        return explicit
    found = shutil.which("nvcc")
    if found:
        return found
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
            return os.path.join(root, "bin", "nvcc")
    if os.access("/usr/local/cuda/bin/nvcc", os.X_OK):
        return "/usr/local/cuda/bin/nvcc"
    return None


def nvcc_version(nvcc):
    """(full `nvcc --version` text, CUDA_VERSION-style int such as 13000)."""
    text = subprocess.run([nvcc, "--version"], check=True, capture_output=True, text=True).stdout
    m = re.search(r"release (\d+)\.(\d+)", text)
    if not m:
        raise RuntimeError("could not read the CUDA version from `nvcc --version`:\n" + text)
    return text, int(m.group(1)) * 1000 + int(m.group(2)) * 10


def supported_archs(nvcc):
    """The SASS architectures this nvcc can generate, as ints (sm_90 -> 90)."""
    try:
        out = subprocess.run([nvcc, "--list-gpu-code"], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None  # nvcc before 11.1 has no --list-gpu-code: trust the requested list
    return sorted({int(m) for m in re.findall(r"\bsm_(\d+)\b", out)})


def parse_archs(text):
    archs = []
    for item in re.split(r"[;,\s]+", text.strip()):
        if not item:
            continue
        m = re.fullmatch(r"(?:sm_|compute_)?(\d+)", item)
        if not m:
            raise ValueError(f"PYGPU_CUDA_ARCHS: {item!r} is not an architecture such as 80 or sm_90")
        archs.append(int(m.group(1)))
    if not archs:
        raise ValueError("PYGPU_CUDA_ARCHS is empty")
    return sorted(set(archs))


def choose_archs(nvcc):
    supported = supported_archs(nvcc)
    env = os.environ.get("PYGPU_CUDA_ARCHS")
    if env:
        archs = parse_archs(env)
        if supported is not None:
            bad = [a for a in archs if a not in supported]
            if bad:
                raise ValueError("PYGPU_CUDA_ARCHS: this nvcc cannot build "
                                 + ", ".join(f"sm_{a}" for a in bad)
                                 + " (it supports " + " ".join(f"sm_{a}" for a in supported) + ")")
        return archs
    if supported is None:
        return [a for a in BASE_ARCHS if a <= 90]
    newer = [a for a in supported if a > max(BASE_ARCHS) and a % 10 == 0]
    return sorted({a for a in BASE_ARCHS if a in supported} | set(newer))


def module_sources():
    """The .cu files of csrc/kernels, one CUDA module each, by name."""
    return {n[:-3]: os.path.join(KERNEL_DIR, n) for n in sorted(os.listdir(KERNEL_DIR)) if n.endswith(".cu")}


def nvcc_command(nvcc, archs, source, output):
    cmd = [nvcc] + NVCC_FLAGS
    for a in archs:
        cmd += ["-gencode", f"arch=compute_{a},code=sm_{a}"]
    newest = max(archs)
    cmd += ["-gencode", f"arch=compute_{newest},code=compute_{newest}"]
    return cmd + ["-o", output, source]


def included_files(source):
    """source and the files it includes with #include "..." from csrc/kernels, transitively."""
    seen, todo = [], [source]
    while todo:
        path = todo.pop()
        if path in seen or not os.path.exists(path):
            continue
        seen.append(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        todo += [os.path.normpath(os.path.join(os.path.dirname(path), inc)) for inc in INCLUDE.findall(text)]
    return sorted(seen)


def cache_key(source, flags, version_text):
    h = hashlib.sha256()
    for path in included_files(source):
        # relative paths: the key is the same in every checkout of the same sources
        h.update(os.path.relpath(path, HERE).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    h.update("\0".join(flags).encode())
    h.update(version_text.encode())
    return h.hexdigest()


def kernel_names(nvcc, source):
    """The extern "C" kernels a .cu file defines, read from nvcc's preprocessor output: the names
    the backend may look up in the module (tests hold the kernel tables against them)."""
    proc = subprocess.run([nvcc, "-E", "-std=c++17", "-x", "cu", source], cwd=HERE, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise RuntimeError(f"nvcc -E failed on {source}")
    return sorted(set(KERNEL.findall(proc.stdout)))


def compile_module(nvcc, archs, name, source, path):
    """Runs nvcc for one module into path, and lists its kernels into path + ".kernels" (both
    atomically). Returns the seconds it took."""
    names = kernel_names(nvcc, source)
    tmp = f"{path}.{os.getpid()}.tmp"
    cmd = nvcc_command(nvcc, archs, source, tmp)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    output = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        if os.path.exists(tmp):
            os.remove(tmp)
        sys.stderr.write(output + "\n")
        raise RuntimeError(f"nvcc failed to compile the CUDA module {name} (command: " + " ".join(cmd) + ")")
    if output:
        sys.stderr.write(output + "\n")
    with open(tmp + ".kernels", "w") as f:
        f.write("\n".join(names) + "\n")
    os.replace(tmp + ".kernels", path + ".kernels")
    os.replace(tmp, path)
    return elapsed


def build_with_nvcc(cache_dir):
    """The nvcc toolchain: one fatbin per module (the driver picks the image). Returns the build
    description fatbin_source takes, or None when there is no nvcc."""
    nvcc = find_nvcc()
    if nvcc is None:
        log("building CPU-only: nvcc not found (put it on PATH or set CUDA_HOME to build the CUDA kernels)")
        return None
    version_text, version = nvcc_version(nvcc)
    archs = choose_archs(nvcc)
    arch_names = " ".join([f"sm_{a}" for a in archs] + [f"compute_{max(archs)}"])
    flags = nvcc_command("nvcc", archs, "SRC", "OUT")[1:-3]
    modules, stale = [], []
    for name, source in module_sources().items():
        path = os.path.join(cache_dir, f"{name}-{cache_key(source, flags, version_text)}.fatbin")
        modules.append((name, [(0, False, path)], path + ".kernels"))
        if not (os.path.exists(path) and os.path.exists(path + ".kernels")):
            stale.append((name, source, path))
    if stale:
        names = ", ".join(n for n, _, _ in stale)
        log(f"CUDA kernels: nvcc {version // 1000}.{version % 1000 // 10} for {arch_names}: {names}")
        start = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=len(stale)) as pool:
            jobs = {pool.submit(compile_module, nvcc, archs, n, src, p): n for n, src, p in stale}
            for job in concurrent.futures.as_completed(jobs):
                log(f"CUDA kernels: {jobs[job]} took {job.result():.1f} s of nvcc")
        log(f"CUDA kernels: nvcc done in {time.monotonic() - start:.1f} s")
    return {"toolchain": "nvcc", "version": version, "archs": arch_names, "modules": modules}


def build_fatbin(build_dir):
    """The build description ({"toolchain": "nvcc" | "nvrtc", "version": CUDA_VERSION-style int,
    "archs": "sm_75 ... compute_120", "modules": [(name, [(arch, is_ptx, image path)], kernel list
    path)]}, arch 0 for a fatbin), or None for a CPU-only build. PYGPU_CUDA_TOOLCHAIN picks the
    toolchain: nvcc (the default) or nvrtc12 (build_nvrtc.py, for release wheels)."""
    if os.environ.get("PYGPU_NO_CUDA", "") not in ("", "0"):
        log("building CPU-only: PYGPU_NO_CUDA is set")
        return None
    toolchain = os.environ.get("PYGPU_CUDA_TOOLCHAIN", "nvcc")
    cache_dir = os.path.join(build_dir, "cuda-cache")
    os.makedirs(cache_dir, exist_ok=True)
    if toolchain == "nvcc":
        built = build_with_nvcc(cache_dir)
    elif toolchain == "nvrtc12":
        import build_nvrtc  # it imports this module
        built = build_nvrtc.build_modules(cache_dir)
    else:
        raise ValueError(f"PYGPU_CUDA_TOOLCHAIN={toolchain!r}: 'nvcc' or 'nvrtc12'")
    if built is not None:
        total = sum(os.path.getsize(p) for _, images, _ in built["modules"] for _, _, p in images)
        log(f"CUDA kernels: {len(built['modules'])} module(s), {total} bytes, {built['archs']}")
    return built


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def incbin(symbol, path, size):
    """C source defining `const unsigned char symbol[size]` with the bytes of the file at path."""
    if re.fullmatch(r"[A-Za-z0-9_./+\-]+", path):
        # the assembler copies the file in; aligned as cuModuleLoadData wants its image
        return (
            "__asm__(\".section .rodata\\n\"\n"
            "        \".balign 64\\n\"\n"
            f"        \".globl {symbol}\\n\"\n"
            f"        \".hidden {symbol}\\n\"\n"
            f"        \".type {symbol}, @object\\n\"\n"
            f"        \"{symbol}:\\n\"\n"
            f"        \".incbin \\\"{path}\\\"\\n\"\n"
            f"        \".size {symbol}, {size}\\n\"\n"
            "        \".previous\\n\");\n"
            f"extern const unsigned char {symbol}[{size}];\n"
        )
    # a path the assembler string cannot hold as is: spell the bytes out
    with open(path, "rb") as f:
        data = f.read()
    rows = ",\n".join(",".join(str(b) for b in data[i:i + 32]) for i in range(0, len(data), 32))
    return f"static _Alignas(64) const unsigned char {symbol}[{size}] = {{\n{rows}\n}};\n"


def fatbin_source(built):
    if built is None:
        return (
            "/* generated by build_cuda.py: no CUDA kernels in this build */\n"
            '#include "runtime/fatbin.h"\n'
            "const PgFatbinModule pg_fatbin_modules[1] = {{0}};\n"
            "const int pg_fatbin_nmodules = 0;\n"
            "const size_t pg_fatbin_size = 0;\n"
            'const char pg_fatbin_archs[] = "";\n'
            'const char pg_cuda_toolchain[] = "";\n'
            "const int pg_cuda_build_version = 0;\n"
        )
    version = built["version"]
    parts = [
        f"/* generated by build_cuda.py: the CUDA kernels for {built['archs']}, built by "
        f"{built['toolchain']} {version // 1000}.{version % 1000 // 10} */\n"
        '#include "runtime/fatbin.h"\n'
    ]
    total, rows = 0, []
    for name, images, kernels_path in built["modules"]:
        image_rows = []
        for k, (arch, ptx, path) in enumerate(images):
            size = os.path.getsize(path)
            total += size
            # nvrtc's images are xz streams (build_nvrtc.py); nvcc's fatbins are stored as they are
            raw = 0
            if built["toolchain"] == "nvrtc":
                with open(path, "rb") as f:
                    raw = len(lzma.decompress(f.read()))
            symbol = f"pg_image_{name}_{k}"
            parts.append(incbin(symbol, path, size))
            image_rows.append(f"    {{{arch}, {int(ptx)}, {symbol}, {size}, {raw}}},\n")
        parts.append(f"static const PgModuleImage pg_images_{name}[{len(images)}] = {{\n" + "".join(image_rows) + "};\n")
        with open(kernels_path) as f:
            kernels = f.read().split()
        parts.append(f"static const char *const pg_kernels_{name}[{len(kernels) + 1}] = {{\n"
                     + "".join(f"    {c_string(k)},\n" for k in kernels) + "    0};\n")
        rows.append(f'    {{{c_string(name)}, pg_images_{name}, {len(images)}, pg_kernels_{name}, {len(kernels)}}},\n')
    parts.append(
        f"const PgFatbinModule pg_fatbin_modules[{len(rows)}] = {{\n{''.join(rows)}}};\n"
        f"const int pg_fatbin_nmodules = {len(rows)};\n"
        f"const size_t pg_fatbin_size = {total};\n"
        f"const char pg_fatbin_archs[] = {c_string(built['archs'])};\n"
        f"const char pg_cuda_toolchain[] = {c_string(built['toolchain'])};\n"
        f"const int pg_cuda_build_version = {version};\n"
    )
    return "".join(parts)


def write_fatbin_source(path, build_dir):
    """Builds (or finds cached) the fatbin and writes fatbin.c when its text changed."""
    text = fatbin_source(build_fatbin(build_dir))
    old = None
    if os.path.exists(path):
        with open(path) as f:
            old = f.read()
    if old != text:
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    write_fatbin_source(os.path.join(HERE, "csrc", "runtime", "fatbin.c"), os.path.join(HERE, "build"))
