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
in {
  inherit checks;
  # (Without their store paths: JSON would turn each into its path alone.)
  sources = builtins.mapAttrs (_: s: removeAttrs s ["outPath"]) {inherit (packages) src scripts vectors;};
  # The builds, with their arguments (not collapsed to their store paths).
  packages = builtins.mapAttrs (_: d: removeAttrs d ["outPath"]) packages.outputs;
  apps = builtins.mapAttrs (_: a: a.program) (call ../apps.nix {inherit packages;});
  formatter = call ../fmt.nix {};
  shell = call ../shell.nix {inherit checks;};
}
