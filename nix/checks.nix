# `nix flake check`: clippy and tests for both targets, formatting, the bench binary
# in test mode on both targets, `poseidon check` under wasmtime, and Nix lint.
{
  lib,
  craneLib,
  packages,
  wasmtime,
  runCommand,
  alejandra,
  deadnix,
}: let
  inherit (packages) src commonArgs wasmArgs nativeArtifacts wasmArtifacts vectors;
  native = commonArgs // {cargoArtifacts = nativeArtifacts;};
  # cargo runs wasm tests (and doctests) through the runner variable.
  wasm =
    wasmArgs
    // {
      cargoArtifacts = wasmArtifacts;
      nativeBuildInputs = [wasmtime];
      CARGO_TARGET_WASM32_WASIP1_RUNNER = "wasmtime run --dir=.";
    };
  clippyArgs = "--workspace --all-targets -- --deny warnings";
  # --all-targets runs the bench binary without --bench: each benchmark once.
  testArgs = "--workspace --all-targets";
  nixFiles = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.unions [
      ../flake.nix
      (lib.fileset.fileFilter (file: file.hasExt "nix") ./.)
    ];
  };
  inherit (packages.outputs) poseidon poseidon-wasm;
in {
  poseidon-fmt = craneLib.cargoFmt {inherit src;};
  poseidon-clippy = craneLib.cargoClippy (native // {cargoClippyExtraArgs = clippyArgs;});
  poseidon-clippy-wasm = craneLib.cargoClippy (wasm // {cargoClippyExtraArgs = clippyArgs;});
  poseidon-test = craneLib.cargoTest (native // {cargoTestExtraArgs = testArgs;});
  poseidon-test-wasm = craneLib.cargoTest (wasm // {cargoTestExtraArgs = testArgs;});
  poseidon-doctest = craneLib.cargoDocTest (native // {cargoTestExtraArgs = "--workspace";});
  poseidon-doctest-wasm = craneLib.cargoDocTest (wasm // {cargoTestExtraArgs = "--workspace";});

  # Every backend, native and under wasmtime.
  poseidon-vectors = runCommand "poseidon-vectors" {nativeBuildInputs = [wasmtime];} ''
    cd ${vectors}
    for backend in reference u29 u29x2 u64 u52; do
      ${poseidon}/bin/poseidon check --backend $backend kimchi.json legacy.json
      wasmtime run --dir=. ${poseidon-wasm}/bin/poseidon.wasm check --backend $backend kimchi.json legacy.json
    done
    touch $out
  '';

  nix-fmt = runCommand "nix-fmt" {nativeBuildInputs = [alejandra];} ''
    alejandra --check ${nixFiles}
    touch $out
  '';
  nix-deadnix = runCommand "nix-deadnix" {nativeBuildInputs = [deadnix];} ''
    deadnix --fail ${nixFiles}
    touch $out
  '';
}
