# `import nixpkgs {system, overlays}` for ./../flake-eval.nix: the package
# stand-ins, traced once per import (the flake must import nixpkgs once per system),
# and the pinned nixpkgs' refusal of x86_64-darwin (26.11 dropped it).
{system, ...}:
if system == "x86_64-darwin"
then throw "Nixpkgs 26.11 has dropped support for x86_64-darwin"
else builtins.trace "stand-in nixpkgs imported for ${system}" (import ../standins.nix {standins = {};}).pkgs
