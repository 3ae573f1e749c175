#!/usr/bin/env python3
"""Which edges and lines of the core (src/) a corpus reaches, per file.

    python3 src-coverage.py [corpus-dir]      # default corpus/core
    TARGET=level python3 src-coverage.py corpus/level-run   # another target

Works on stable Rust, where `cargo fuzz coverage` (LLVM source coverage with
a matching llvm-profdata) is not available: it replays the corpus once under
gdb, ORs libFuzzer's inline 8-bit edge counters after every input, reads the
edges' addresses from the relocations of the `__sancov_pcs` table and maps
them to source lines with llvm-symbolizer. Needs gdb, readelf (binutils) and
llvm-symbolizer (Debian: `apt-get install gdb binutils llvm`), and a built
target (`cargo fuzz build --sanitizer none core`).

An edge is a branch target that sanitizer coverage instruments; most of the
edges never taken are the failure branches of bounds, overflow and
debug-assertion checks, which a correct program never runs. A line counts as
reached when any of its edges ran; the lines not reached are listed.
"""

import os
import re
import struct
import subprocess
import sys
import tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BINARY = os.path.join(HERE, "target/x86_64-unknown-linux-gnu/release", os.environ.get("TARGET", "core"))

GDB_SCRIPT = r'''
import gdb
# Before `run` these are link-time addresses; their difference is the size.
n = int(gdb.parse_and_eval("(long)&__stop___sancov_cntrs - (long)&__start___sancov_cntrs"))
hit = bytearray(n)

class Done(gdb.FinishBreakpoint):
    def stop(self):
        start = int(gdb.parse_and_eval("(long)&__start___sancov_cntrs"))
        mem = gdb.selected_inferior().read_memory(start, n).tobytes()
        for i, b in enumerate(mem):
            if b:
                hit[i] = 1
        return False

    def out_of_scope(self):
        pass

class Entry(gdb.Breakpoint):
    def stop(self):
        Done(gdb.newest_frame(), internal=True)
        return False

gdb.execute("set pagination off")
Entry("rust_fuzzer_test_input")
gdb.execute("run")
with open(OUT, "w") as f:
    f.write("".join("1" if b else "0" for b in hit))
'''


def section(binary, name):
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if name in fields:
            i = fields.index(name)
            return int(fields[i + 2], 16), int(fields[i + 4], 16)
    sys.exit(f"no section {name} in {binary}")


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus/core")
    with tempfile.TemporaryDirectory() as tmp:
        hits_file = os.path.join(tmp, "hits")
        script = os.path.join(tmp, "cov.py")
        with open(script, "w") as f:
            f.write(f"OUT = {hits_file!r}\n" + GDB_SCRIPT)
        subprocess.run(
            ["gdb", "-q", "-batch", "-ex", f"set args -runs=0 {corpus}", "-x", script, BINARY],
            check=True, capture_output=True,
        )
        hits = [c == "1" for c in open(hits_file).read()]

    # The PC table holds (pc, flags) pairs, filled in by relative relocations.
    pcs_start, pcs_size = section(BINARY, "__sancov_pcs")
    relocs = {}
    out = subprocess.run(["readelf", "-rW", BINARY], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[2] == "R_X86_64_RELATIVE":
            relocs[int(f[0], 16)] = int(f[3], 16)
    pcs = [relocs.get(pcs_start + 16 * i, 0) for i in range(pcs_size // 16)]
    assert len(pcs) == len(hits), (len(pcs), len(hits))

    sym = subprocess.run(
        ["llvm-symbolizer", f"--obj={BINARY}"],
        input="".join(f"0x{pc:x}\n" for pc in pcs), capture_output=True, text=True,
    ).stdout
    blocks = [b for b in sym.split("\n\n") if b.strip()]

    edges, edges_hit = defaultdict(int), defaultdict(int)
    lines, lines_hit = defaultdict(set), defaultdict(set)
    src = os.path.join(ROOT, "src") + "/"
    for block, hit in zip(blocks, hits):
        frames = block.strip().split("\n")
        # The innermost frame of the core's own code, if any.
        for loc in frames[1::2]:
            m = re.match(r"(.*):(\d+):\d+$", loc)
            if m and m.group(1).startswith(src) and int(m.group(2)) > 0:
                name, line = m.group(1)[len(ROOT) + 1:], int(m.group(2))
                edges[name] += 1
                edges_hit[name] += hit
                lines[name].add(line)
                if hit:
                    lines_hit[name].add(line)
                break

    print(f"{'file':18} {'edges':>11} {'lines':>9}")
    for name in sorted(edges):
        print(f"{name:18} {edges_hit[name]:5}/{edges[name]:<5} {len(lines_hit[name]):4}/{len(lines[name]):<4}")
    e, eh = sum(edges.values()), sum(edges_hit.values())
    l = sum(len(v) for v in lines.values())
    lh = sum(len(v) for v in lines_hit.values())
    print(f"{'src/ total':18} {eh:5}/{e:<5} {lh:4}/{l:<4}"
          f"  ({100 * eh / e:.1f}% of edges, {100 * lh / l:.1f}% of lines)")
    print("\nlines not reached:")
    for name in sorted(lines):
        text = open(os.path.join(ROOT, name)).read().split("\n")
        for line in sorted(lines[name] - lines_hit[name]):
            print(f"  {name}:{line}: {text[line - 1].strip()}")


if __name__ == "__main__":
    main()
