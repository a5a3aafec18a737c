# What the apps and the hermetic report run with, for some runtimes: the pinned
# tools (`inputs`, their PATH: the orchestrator, xtask, first) and the variables
# `xtask bench` reads (`env`), no more than those runtimes run (bench-native has no
# wasm module and no Node).
# Plain Nix without nixpkgs, so that `make test` evaluates this very file with
# stand-ins for the packages and runs the flake's shell steps with the result
# (`cargo xtask nix-sandbox`).
{
  bash,
  coreutils,
  gnugrep,
  gnused,
  gawk,
  wasmtime,
  nodejs,
  # One Node runtime per LTS line (node22, node24), as users run them.
  nodes,
  xtask,
  scripts,
  bench-native,
  bench-wasm,
  # The wide-arithmetic module (runtime wasmtime-wide).
  bench-wide,
  # The fma module (rows fma, under wasmtime and each Node).
  bench-fma,
  bench-report-tool,
  rustVersion,
  pins,
  # Some of "native", "wasmtime", "wasmtime-wide" (the same wasmtime with
  # -W wide-arithmetic=y) and "node" (every Node of `nodes`).
  runtimes,
}: let
  has = rt: builtins.elem rt runtimes;
  when = cond: value:
    if cond
    then value
    else {};
  wasm = has "wasmtime" || has "node";
in {
  inputs =
    [xtask bash coreutils gnugrep gnused gawk]
    ++ (
      if has "wasmtime" || has "wasmtime-wide"
      then [wasmtime]
      else []
    )
    ++ (
      if has "node"
      then [nodejs]
      else []
    );
  env =
    {
      BENCH_RUNTIMES = builtins.concatStringsSep " " runtimes;
      BENCH_SCRIPTS = "${scripts}";
      BENCH_REPORT_BIN = "${bench-report-tool}/bin/bench-report";
      BENCH_ENV = builtins.concatStringsSep "\n" (
        ["rustc=rustc ${rustVersion} (rust-overlay)"]
        ++ map (k: "${k}=${pins.${k}}") (builtins.attrNames pins)
      );
    }
    // when (has "native") {BENCH_NATIVE_BIN = "${bench-native}/bin/poseidon-bench";}
    // when wasm {BENCH_WASM_BIN = "${bench-wasm}/bin/poseidon-bench.wasm";}
    // when (has "wasmtime-wide") {BENCH_WIDE_BIN = "${bench-wide}/bin/poseidon-bench.wasm";}
    // when wasm {BENCH_FMA_BIN = "${bench-fma}/bin/poseidon-bench.wasm";}
    // when (has "node") {BENCH_NODES = builtins.concatStringsSep " " (map (n: "${n}/bin/node") nodes);};
}
