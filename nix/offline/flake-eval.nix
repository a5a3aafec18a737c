# flake.nix's outputs for every system it declares, evaluated with stand-in inputs
# (cargo xtask nix-review): nixpkgs is ./nixpkgs, crane and rust-overlay hold only
# what the flake calls. With `revs = false` the inputs have no `rev`, as after
# `nix build --override-input nixpkgs path:…`.
{revs ? true}: let
  s = import ./standins.nix {standins = {};};
  input = name: attrs:
    attrs
    // {narHash = "sha256-standin-${name}";}
    // s.lib.optionalAttrs revs {rev = "standin-${name}";};
  nixpkgs = input "nixpkgs" {
    outPath = toString ./nixpkgs;
    inherit (s) lib;
  };
  crane = input "crane" {mkLib = _: {overrideToolchain = _: s.craneLib;};};
  rust-overlay = input "rust-overlay" {overlays.default = _: _: {};};
  outputs = (import ../../flake.nix).outputs {inherit self nixpkgs crane rust-overlay;};
  self = outputs // input "self" {};
  # A derivation's name and what it is (its output, or its dependency artifacts'
  # target and profile).
  entries = kind: set:
    builtins.attrValues (builtins.mapAttrs (n: d: {
        inherit (d) name;
        what = "${kind}.${n}";
        deps = d.cargoArtifacts or null;
      })
      set);
  # Per system, each derivation's attributes (JSON would turn one with an outPath,
  # a build or a runCommand, into its path alone).
  attrs = builtins.mapAttrs (_: builtins.mapAttrs (_: d: removeAttrs d ["outPath"]));
in
  outputs
  // {
    checks = attrs outputs.checks;
    packages = attrs outputs.packages;
    # The count programs' Python package (x86_64-linux), with its build arguments.
    wheel = builtins.head (s.call ../wasmtime-py.nix {}).packages;
    # Per system, every derivation that the packages and checks build.
    derivations = builtins.mapAttrs (system: packages: let
      top = entries "packages" (removeAttrs packages ["default"]) ++ entries "checks" outputs.checks.${system};
      deps = map (e: {
        inherit (e.deps) name;
        what = "deps ${e.deps.target} ${e.deps.profile}";
      }) (builtins.filter (e: e.deps != null) top);
    in
      map (e: {inherit (e) name what;}) top ++ deps)
    outputs.packages;
  }
