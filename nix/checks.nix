# `nix flake check`: clippy and tests for both targets, formatting, the bench binary
# in test mode on both targets, `poseidon check` under wasmtime, Nix lint and, on
# x86_64-linux, the counts' check (the count programs, the wasmtime wheel and
# valgrind, in the sandbox).
{
  lib,
  craneLib,
  packages,
  wasmtime,
  runCommand,
  alejandra,
  deadnix,
}: let
  inherit (packages) commonArgs wasmArgs nativeArtifacts wasmArtifacts vectors dev;
  native = commonArgs // {cargoArtifacts = nativeArtifacts;};
  # cargo runs wasm tests (and doctests) through the runner variable. The sandbox's
  # HOME (/homeless-shelter) cannot be created, so wasmtime runs without its cache.
  wasmRunner = {
    nativeBuildInputs = [wasmtime];
    CARGO_TARGET_WASM32_WASIP1_RUNNER = "wasmtime run -C cache=n --dir=.";
  };
  # Clippy runs nothing: no wasmtime, no runner.
  wasmClippy = wasmArgs // {cargoArtifacts = wasmArtifacts;};
  # Tests in the dev profile with debug assertions (the limb bounds), as `make test`.
  nativeDev = dev commonArgs // {cargoArtifacts = packages.nativeDevArtifacts;};
  wasmDev = dev wasmArgs // wasmRunner // {cargoArtifacts = packages.wasmDevArtifacts;};
  # The cargo arguments of `make test` (xtask/src/tiers.rs): `cargo xtask nix-review`
  # checks that these are its own. The host's tools (Cargo.toml's
  # [workspace.metadata.tests] host-only) run natively only: they spawn processes
  # and read the checkout, which wasm32-wasip1 cannot.
  hostOnly = (lib.importTOML ../Cargo.toml).workspace.metadata.tests.host-only;
  excludeHostOnly = lib.concatMapStrings (p: " --exclude ${p}") hostOnly;
  clippyArgs = "--workspace --all-targets -- -D warnings";
  # --all-targets runs the bench binary without --bench: each benchmark once.
  testArgs = "--workspace --all-targets";
  wasmTestArgs = "--workspace${excludeHostOnly} --all-targets";
  nixFiles = lib.fileset.toSource {
    root = ../.;
    fileset = lib.fileset.unions [
      ../flake.nix
      (lib.fileset.fileFilter (file: file.hasExt "nix") ./.)
    ];
  };
  inherit (packages.outputs) poseidon poseidon-wasm;
in
  {
    poseidon-fmt = craneLib.cargoFmt {inherit (commonArgs) src pname version;};
    poseidon-clippy = craneLib.cargoClippy (native // {cargoClippyExtraArgs = clippyArgs;});
    poseidon-clippy-wasm = craneLib.cargoClippy (wasmClippy // {cargoClippyExtraArgs = clippyArgs;});
    poseidon-test = craneLib.cargoTest (nativeDev // {cargoTestExtraArgs = testArgs;});
    poseidon-test-wasm = craneLib.cargoTest (wasmDev // {cargoTestExtraArgs = wasmTestArgs;});
    poseidon-doctest = craneLib.cargoDocTest (nativeDev // {cargoTestExtraArgs = "--workspace";});
    poseidon-doctest-wasm = craneLib.cargoDocTest (wasmDev // {cargoTestExtraArgs = "--workspace${excludeHostOnly}";});

    # Every backend, native and under wasmtime (./vectors.sh).
    poseidon-vectors = runCommand "poseidon-vectors" {
      nativeBuildInputs = [wasmtime];
      POSEIDON = "${poseidon}/bin/poseidon";
      POSEIDON_WASM = "${poseidon-wasm}/bin/poseidon.wasm";
      VECTORS = "${vectors}";
    } (builtins.readFile ./vectors.sh);

    nix-fmt = runCommand "nix-fmt" {nativeBuildInputs = [alejandra];} ''
      alejandra --check ${nixFiles}
      touch $out
    '';
    nix-deadnix = runCommand "nix-deadnix" {nativeBuildInputs = [deadnix];} ''
      deadnix --fail ${nixFiles}
      touch $out
    '';
  }
  // lib.optionalAttrs packages.withCounts {
    # xtask counts --check: a small subset counted twice, the counts equal and the
    # native and Wasm digests agreeing.
    poseidon-counts = runCommand "poseidon-counts-check" (packages.countEnv
      // {
        nativeBuildInputs = packages.countInputs;
        countFilter = "--check";
      }) (builtins.readFile ./counts.sh);
  }
