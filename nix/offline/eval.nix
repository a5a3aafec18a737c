# The flake's nix/*.nix files called with the stand-ins of ./standins.nix, for
# `make test` (cargo xtask nix-sandbox), which runs the evaluated shell steps the
# way the Nix sandbox and the apps would.
# With `tracked` (the checkout's files), `sources` holds the file sets of the
# derivations' sources (cargo xtask nix-replay).
{
  standins,
  tracked ? null,
}: let
  inherit (import ./standins.nix {inherit standins tracked;}) call;
  packages = call ../packages.nix {};
  checks = call ../checks.nix {inherit packages;};
  # A derivation's attributes (JSON would turn one with an outPath into its path alone).
  attrs = _: d: removeAttrs d ["outPath"];
in {
  checks = builtins.mapAttrs attrs checks;
  sources = builtins.mapAttrs attrs {inherit (packages) src scripts vectors;};
  # The builds, with their arguments (not collapsed to their store paths).
  packages = builtins.mapAttrs attrs packages.outputs;
  # The wide build's compiler wrapper, with its text (in `packages` its store path).
  rustcWide = removeAttrs packages.outputs.bench-wide.RUSTC_WRAPPER ["outPath"];
  # The fma build's arguments (packages.bench-fma merges its module).
  inherit (packages) fmaArgs;
  apps = builtins.mapAttrs (_: a: a.program) (call ../apps.nix {inherit packages;});
  formatter = call ../fmt.nix {};
  shell = call ../shell.nix {inherit checks;};
}
