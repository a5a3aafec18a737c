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
    systems = ["x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin"];
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
          flake = self.rev or self.dirtyRev or "unknown";
          nixpkgs = nixpkgs.rev;
          crane = crane.rev;
          rust-overlay = rust-overlay.rev;
          cargo_lock_sha256 = builtins.hashFile "sha256" ./Cargo.lock;
        };
      };
    in {
      inherit packages;
      checks = call ./nix/checks.nix {
        inherit packages;
        inherit (toolchain) craneLib;
      };
      apps = call ./nix/apps.nix {inherit packages;};
      formatter = call ./nix/fmt.nix {};
      shell = call ./nix/shell.nix {
        inherit (toolchain) craneLib;
        checks = self.checks.${system};
      };
    };
    forAllSystems = f: nixpkgs.lib.genAttrs systems (system: f (scope system));
  in {
    packages = forAllSystems (s: s.packages.outputs);
    checks = forAllSystems (s: s.checks);
    apps = forAllSystems (s: s.apps);
    devShells = forAllSystems (s: {default = s.shell;});
    formatter = forAllSystems (s: s.formatter);
  };
}
