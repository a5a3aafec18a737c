#!/usr/bin/env python3
"""Counts for a wasm32-wasip1 program between two markers, under wasmtime (the PyPI
package, pinned by scripts/counts.sh).

  wasm-count.py fuel MODULE.wasm ARGS...    Wasm operators executed (fuel)
  wasm-count.py compile MODULE.wasm OUT     precompile with the pinned target and flags
  wasm-count.py run MODULE.cwasm ARGS...    run a precompiled module (for callgrind)
  wasm-count.py key                         the versions and flags behind the counts

The markers are WASI's sched_yield (the count program calls std::thread::yield_now()
before and after its window). `fuel` defines it to read the fuel, one unit per
executed operator (0 for nop, drop, block, loop, end and the like; bulk memory
operators per byte), and prints `fuel N` for the window after the program's output.
`run` defines it to call the host's sched_yield, which callgrind's
--dump-before=sched_yield turns into dumps around the window; the window's
instructions in the compiled code are then the same on every machine with the
pinned flags, without fuel's checks in that code.
"""
import os
import sys

import wasmtime

FUEL = 1 << 62
TARGET = "x86_64-unknown-linux-gnu"
# x86-64-v3 (what valgrind and most hosts run), named explicitly: with a target set,
# nothing is inferred from the host, so the compiled code is the same everywhere.
FLAGS = ["has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt", "has_avx",
         "has_avx2", "has_fma", "has_bmi1", "has_bmi2", "has_lzcnt"]


def config(fuel: bool) -> wasmtime.Config:
    c = wasmtime.Config()
    c.consume_fuel = fuel
    if not fuel:
        c.target = TARGET
        for f in FLAGS:
            c.cranelift_flag_enable(f)
        c.parallel_compilation = False
    return c


def run(engine: wasmtime.Engine, module: wasmtime.Module, args, marker, fuel: bool) -> int:
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.argv = args
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    if fuel:
        store.set_fuel(FUEL)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    linker.allow_shadowing = True

    def sched_yield() -> int:
        marker(store)
        return 0

    linker.define_func("wasi_snapshot_preview1", "sched_yield",
                       wasmtime.FuncType([], [wasmtime.ValType.i32()]), sched_yield)
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except wasmtime.ExitTrap as e:
        if e.code != 0:
            return e.code
    sys.stdout.flush()
    return 0


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("fuel", "compile", "run", "key"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, rest = sys.argv[1], sys.argv[2:]
    if mode == "key":
        import importlib.metadata as m
        print(f"wasmtime_py {m.version('wasmtime')}")
        print(f"cranelift {TARGET} {','.join(FLAGS)} opt_level=speed")
        return 0
    if not rest:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    engine = wasmtime.Engine(config(mode == "fuel"))
    if mode == "compile":
        if len(rest) != 2:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        module = wasmtime.Module.from_file(engine, rest[0])
        with open(rest[1], "wb") as f:
            f.write(module.serialize())
        return 0
    marks = []
    if mode == "fuel":
        module = wasmtime.Module.from_file(engine, rest[0])
        code = run(engine, module, rest, lambda store: marks.append(store.get_fuel()), True)
    else:
        try:
            module = wasmtime.Module.deserialize_file(engine, rest[0])
        except wasmtime.WasmtimeError as e:
            # A host without the pinned features: the count would be of other code.
            print(f"wasm-count.py: this host cannot run code compiled for {TARGET} with {','.join(FLAGS)}: {e}",
                  file=sys.stderr)
            return 3
        code = run(engine, module, rest, lambda store: (marks.append(0), os.sched_yield()), False)
    if code != 0:
        return code
    if len(marks) != 2:
        print(f"wasm-count.py: expected 2 markers (sched_yield calls), saw {len(marks)}", file=sys.stderr)
        return 1
    if mode == "fuel":
        print(f"fuel {marks[0] - marks[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
