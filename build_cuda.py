"""The nvcc step of the build: compiles csrc/kernels/kernels.cu into a fatbin and generates
csrc/runtime/fatbin.c, which embeds it in the extension.

- nvcc is looked up on PATH, then in $CUDA_HOME/bin (or $CUDA_PATH/bin), then /usr/local/cuda/bin.
  Without it, or with PYGPU_NO_CUDA=1, fatbin.c embeds nothing and the extension is CPU-only.
- The fatbin holds SASS for sm_75 sm_80 sm_90 and the newer families this nvcc supports
  (sm_100, sm_120, ...), plus PTX of the newest for GPUs that come later. sm_86 and sm_89 GPUs
  run the sm_80 SASS natively (SASS is compatible within a major version), so they need no
  cubin of their own: each extra one costs about two minutes of nvcc and a few MB of fatbin.
  PYGPU_CUDA_ARCHS="80;90" replaces the list (PTX is then that of the newest listed).
- The fatbin is cached as build/cuda-cache/<sha256>.fatbin, keyed by every file under
  csrc/kernels (the op table ops.def included), the nvcc flags and the nvcc version, so nvcc does
  not re-run when only other files changed.
- fatbin.c pulls the file in with the assembler's .incbin (fast for megabytes, unlike a C array)
  and defines pg_fatbin, pg_fatbin_size, pg_fatbin_archs and pg_cuda_build_version (CUDA_VERSION
  style: 13000 is 13.0).
"""
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL_DIR = os.path.join(HERE, "csrc", "kernels")
MAIN_SOURCE = os.path.join(KERNEL_DIR, "kernels.cu")

# SASS always built when the toolkit supports it; newer families (sm_X0, X >= 10) are added below.
BASE_ARCHS = [75, 80, 90, 100, 120]
NVCC_FLAGS = ["-fatbin", "-O3", "-std=c++17", "--threads", "0", "-Xfatbin", "-compress-all"]


def log(msg):
    print("pygpu build: " + msg, flush=True)


def find_nvcc():
    """The nvcc path, or None."""
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


def nvcc_command(nvcc, archs, output):
    cmd = [nvcc] + NVCC_FLAGS
    for a in archs:
        cmd += ["-gencode", f"arch=compute_{a},code=sm_{a}"]
    newest = max(archs)
    cmd += ["-gencode", f"arch=compute_{newest},code=compute_{newest}"]
    return cmd + ["-o", output, MAIN_SOURCE]


def kernel_files():
    """What nvcc reads: the kernel headers, tables and .cu files (not the CPU's .c instantiations)."""
    files = []
    for root, dirs, names in os.walk(KERNEL_DIR):
        dirs.sort()
        files += [os.path.join(root, n) for n in sorted(names) if not n.endswith(".c")]
    return files


def cache_key(cmd_flags, version_text):
    h = hashlib.sha256()
    for path in kernel_files():
        h.update(os.path.relpath(path, HERE).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
        h.update(b"\0")
    h.update("\0".join(cmd_flags).encode())
    h.update(version_text.encode())
    return h.hexdigest()


def build_fatbin(build_dir):
    """Returns (fatbin path, archs string, CUDA version int), or None for a CPU-only build."""
    if os.environ.get("PYGPU_NO_CUDA", "") not in ("", "0"):
        log("building CPU-only: PYGPU_NO_CUDA is set")
        return None
    nvcc = find_nvcc()
    if nvcc is None:
        log("building CPU-only: nvcc not found (put it on PATH or set CUDA_HOME to build the CUDA kernels)")
        return None
    version_text, version = nvcc_version(nvcc)
    archs = choose_archs(nvcc)
    arch_names = " ".join([f"sm_{a}" for a in archs] + [f"compute_{max(archs)}"])
    cache_dir = os.path.join(build_dir, "cuda-cache")
    os.makedirs(cache_dir, exist_ok=True)
    # the key leaves out the paths, which differ between checkouts of the same sources
    flags = nvcc_command("nvcc", archs, "OUT")[1:-3]
    path = os.path.join(cache_dir, cache_key(flags, version_text) + ".fatbin")
    if os.path.exists(path):
        log(f"CUDA kernels: cached fatbin {os.path.relpath(path, HERE)} ({os.path.getsize(path)} bytes, {arch_names})")
        return path, arch_names, version
    tmp = f"{path}.{os.getpid()}.tmp"
    cmd = nvcc_command(nvcc, archs, tmp)
    log(f"CUDA kernels: nvcc {version // 1000}.{version % 1000 // 10} for {arch_names} (about two minutes per architecture)")
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    output = (proc.stdout + proc.stderr).strip()
    if proc.returncode != 0:
        if os.path.exists(tmp):
            os.remove(tmp)
        sys.stderr.write(output + "\n")
        raise RuntimeError("nvcc failed to compile the CUDA kernels (command: " + " ".join(cmd) + ")")
    if output:
        sys.stderr.write(output + "\n")
    os.replace(tmp, path)
    log(f"CUDA kernels: nvcc took {elapsed:.1f} s, fatbin {os.path.getsize(path)} bytes")
    return path, arch_names, version


def c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def fatbin_source(built):
    if built is None:
        return (
            "/* generated by build_cuda.py: no CUDA kernels in this build */\n"
            "#include <stddef.h>\n"
            "const unsigned char pg_fatbin[1] = {0};\n"
            "const size_t pg_fatbin_size = 0;\n"
            'const char pg_fatbin_archs[] = "";\n'
            "const int pg_cuda_build_version = 0;\n"
        )
    path, archs, version = built
    size = os.path.getsize(path)
    head = (
        f"/* generated by build_cuda.py: the CUDA kernels for {archs}, built by CUDA "
        f"{version // 1000}.{version % 1000 // 10} */\n"
        "#include <stddef.h>\n"
    )
    tail = (
        f"const size_t pg_fatbin_size = {size};\n"
        f"const char pg_fatbin_archs[] = {c_string(archs)};\n"
        f"const int pg_cuda_build_version = {version};\n"
    )
    if re.fullmatch(r"[A-Za-z0-9_./+\-]+", path):
        # the assembler copies the file in; aligned as cuModuleLoadData wants its image
        body = (
            "__asm__(\".section .rodata\\n\"\n"
            "        \".balign 64\\n\"\n"
            "        \".globl pg_fatbin\\n\"\n"
            "        \".hidden pg_fatbin\\n\"\n"
            "        \".type pg_fatbin, @object\\n\"\n"
            "        \"pg_fatbin:\\n\"\n"
            f"        \".incbin \\\"{path}\\\"\\n\"\n"
            f"        \".size pg_fatbin, {size}\\n\"\n"
            "        \".previous\\n\");\n"
        )
    else:
        # a path the assembler string cannot hold as is: spell the bytes out
        with open(path, "rb") as f:
            data = f.read()
        rows = ",\n".join(",".join(str(b) for b in data[i:i + 32]) for i in range(0, len(data), 32))
        body = f"_Alignas(64) const unsigned char pg_fatbin[{size}] = {{\n{rows}\n}};\n"
    return head + body + tail


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
