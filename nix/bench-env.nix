# What the apps and the hermetic report run with: the pinned tools (`inputs`, their
# PATH) and the variables scripts/bench.sh reads (`env`). Plain Nix without nixpkgs,
# so that `make test` evaluates this very file with stand-ins for the packages and
# runs the flake's shell steps with the result (`cargo xtask nix-sandbox`).
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
  scripts,
  bench-native,
  bench-wasm,
  bench-report-tool,
  rustVersion,
  pins,
}: {
  inputs = [bash wasmtime nodejs coreutils gnugrep gnused gawk];
  env = {
    BENCH_SCRIPTS = "${scripts}";
    BENCH_NATIVE_BIN = "${bench-native}/bin/poseidon-bench";
    BENCH_WASM_BIN = "${bench-wasm}/bin/poseidon-bench.wasm";
    BENCH_REPORT_BIN = "${bench-report-tool}/bin/bench-report";
    BENCH_NODES = builtins.concatStringsSep " " (map (n: "${n}/bin/node") nodes);
    BENCH_ENV = builtins.concatStringsSep "\n" (
      ["rustc=rustc ${rustVersion} (rust-overlay)"]
      ++ map (k: "${k}=${pins.${k}}") (builtins.attrNames pins)
    );
  };
}
