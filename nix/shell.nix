# `nix develop`: the pinned toolchain (from craneLib), wasmtime, Node 24 on PATH
# and Node 22 beside it for the bench (BENCH_NODES), and the tools that the checks
# use; binaryen (WASM_OPT: the bench's fma rows merge their kernels with it);
# where the counts exist (x86_64-linux), valgrind and the pinned Python with
# wasmtime (COUNT_PYTHON) for `make counts` and the A/B's counts (`make ab`). With a proof-systems checkout: PROOF_SYSTEMS=/path make
# bench, or make ab BASE=/path@REV HEAD=/path.
{
  lib,
  craneLib,
  checks,
  wasmtime,
  nodejs_22,
  nodejs_24,
  jq,
  binaryen,
  alejandra,
  deadnix,
  valgrind,
  countPython ? null,
}:
craneLib.devShell ({
    inherit checks;
    packages = [wasmtime nodejs_24 jq binaryen alejandra deadnix] ++ lib.optionals (countPython != null) [valgrind];
    BENCH_NODES = "${nodejs_22}/bin/node ${nodejs_24}/bin/node";
    WASM_OPT = "${binaryen}/bin/wasm-opt";
  }
  // lib.optionalAttrs (countPython != null) {
    COUNT_PYTHON = "${countPython}/bin/python3";
  })
