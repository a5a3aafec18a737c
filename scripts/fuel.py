#!/usr/bin/env python3
"""Wasm operators executed by a wasm32-wasip1 program between two markers.

  fuel.py MODULE.wasm ARGS...

Runs MODULE under wasmtime (the PyPI package, pinned by scripts/counts.sh) with fuel
on: one unit per executed operator (0 for nop, drop, block, loop, end and the like;
bulk memory operators per byte). WASI's sched_yield is the marker (the count
program calls std::thread::yield_now() before and after its window): this script
defines it, reads the fuel at each call, and prints the fuel consumed between the
first two calls as `fuel N`, after the program's own output.
"""
import sys

import wasmtime

FUEL = 1 << 62


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, args = sys.argv[1], sys.argv[1:]
    config = wasmtime.Config()
    config.consume_fuel = True
    engine = wasmtime.Engine(config)
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.argv = args
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    store.set_fuel(FUEL)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    linker.allow_shadowing = True
    marks = []

    def sched_yield() -> int:
        marks.append(store.get_fuel())
        return 0

    linker.define_func("wasi_snapshot_preview1", "sched_yield", wasmtime.FuncType([], [wasmtime.ValType.i32()]), sched_yield)
    module = wasmtime.Module.from_file(engine, path)
    instance = linker.instantiate(store, module)
    try:
        instance.exports(store)["_start"](store)
    except wasmtime.ExitTrap as e:
        if e.code != 0:
            return e.code
    sys.stdout.flush()
    if len(marks) != 2:
        print(f"fuel.py: expected 2 markers (sched_yield calls), saw {len(marks)}", file=sys.stderr)
        return 1
    print(f"fuel {marks[0] - marks[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
