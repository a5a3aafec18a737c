# `nix develop`: the pinned toolchain (from craneLib), wasmtime, Node, and the tools
# that the checks use.
{
  craneLib,
  checks,
  wasmtime,
  nodejs,
  jq,
  alejandra,
  deadnix,
}:
craneLib.devShell {
  inherit checks;
  packages = [wasmtime nodejs jq alejandra deadnix];
}
