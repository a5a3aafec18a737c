{
  description = "Kimchi Poseidon: one Criterion benchmark, natively and as wasm32-wasip1 under wasmtime";

  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixpkgs-unstable";
    crane.url = "github:ipetkov/crane";
    rust-overlay = {
      url = "github:oxalica/rust-overlay";
      inputs.nixpkgs.follows = "nixpkgs";
    };
  };

  outputs = {
    self,
    nixpkgs,
    crane,
    rust-overlay,
  }: let
    # The systems the pinned nixpkgs (26.11) supports and the workflow's runners
    # cover; 26.11 dropped x86_64-darwin (its import throws there), so Intel Macs are
    # not among them. README's Nix section lists the same.
    systems = ["x86_64-linux" "aarch64-linux" "aarch64-darwin"];
    # One scope per system: pkgs with rust-overlay, the pinned toolchain, and our files in nix/.
    scope = system: let
      pkgs = import nixpkgs {
        inherit system;
        overlays = [rust-overlay.overlays.default];
      };
      # callPackage-style files; outputs drop the `override` helpers callPackage adds.
      call = file: args: removeAttrs (pkgs.callPackage file args) ["override" "overrideDerivation"];
      toolchain = call ./nix/toolchain.nix {inherit crane;};
      packages = call ./nix/packages.nix {
        inherit (toolchain) craneLib rustToolchain;
        countPython =
          if system == "x86_64-linux"
          then call ./nix/wasmtime-py.nix {}
          else null;
        # Recorded in the bench report, so two machines' reports differ only in hardware.
        pins = {
          # An input overridden with `path:` has no rev: its NAR hash stands in.
          flake = self.rev or self.dirtyRev or "unknown";
          nixpkgs = pin nixpkgs;
          crane = pin crane;
          rust-overlay = pin rust-overlay;
          cargo_lock_sha256 = builtins.hashFile "sha256" ./Cargo.lock;
        };
      };
      checks = call ./nix/checks.nix {
        inherit packages;
        inherit (toolchain) craneLib;
      };
    in {
      inherit packages checks;
      apps = call ./nix/apps.nix {inherit packages;};
      formatter = call ./nix/fmt.nix {};
      shell = call ./nix/shell.nix {
        inherit checks;
        inherit (toolchain) craneLib;
        inherit (packages) countPython;
      };
    };
    pin = input: input.rev or input.narHash or "unknown";
    # nixpkgs is imported once per system, and every output reads that one scope.
    perSystem = nixpkgs.lib.genAttrs systems scope;
    forAllSystems = f: builtins.mapAttrs (_: f) perSystem;
  in {
    packages = forAllSystems (s: s.packages.outputs);
    checks = forAllSystems (s: s.checks);
    apps = forAllSystems (s: s.apps);
    devShells = forAllSystems (s: {default = s.shell;});
    formatter = forAllSystems (s: s.formatter);
  };
}
