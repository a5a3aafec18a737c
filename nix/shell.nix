# `nix develop`: the pinned toolchain (from craneLib), wasmtime, Node 24 on PATH
# and Node 22 beside it for the bench (BENCH_NODES), and the tools that the checks
# use. With a proof-systems checkout: PROOF_SYSTEMS=/path make bench.
{
  craneLib,
  checks,
  wasmtime,
  nodejs_22,
  nodejs_24,
  jq,
  alejandra,
  deadnix,
}:
craneLib.devShell {
  inherit checks;
  packages = [wasmtime nodejs_24 jq alejandra deadnix];
  BENCH_NODES = "${nodejs_22}/bin/node ${nodejs_24}/bin/node";
}
