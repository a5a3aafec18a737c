# `nix fmt`: alejandra on the flake's files (./fmt.sh: with no arguments, flake.nix
# and nix/ from the flake's root, not stdin).
{
  writeShellApplication,
  alejandra,
}:
writeShellApplication {
  name = "nix-fmt";
  runtimeInputs = [alejandra];
  text = builtins.readFile ./fmt.sh;
}
