# The workspace built with crane for the host and for wasm32-wasip1: the bench
# binaries, the `poseidon` tool, the report tool, and the hermetic bench report.
# Follows crane's quick-start-workspace example (buildDepsOnly -> cargoArtifacts
# reused by every derivation) and its source-filtering docs (filesets).
{
  lib,
  craneLib,
  rustToolchain,
  pins,
  jq,
  bash,
  wasmtime,
  nodejs_22,
  nodejs_24,
  runCommand,
  coreutils,
  gnugrep,
  gnused,
  gawk,
}: let
  root = ../.;
  # Cargo sources plus what the tests include_str!: the JSON test vectors, and the
  # flake files whose pins a test checks.
  src = lib.fileset.toSource {
    inherit root;
    fileset = lib.fileset.unions [
      (craneLib.fileset.commonCargoSources root)
      (lib.fileset.fileFilter (file: file.hasExt "json") ../poseidon/tests/data)
      ../flake.nix
      ../flake.lock
    ];
  };
  # The shell scripts that the apps and the README's commands share.
  scripts = lib.fileset.toSource {
    root = ../scripts;
    fileset = ../scripts;
  };
  vectors = lib.fileset.toSource {
    root = ../poseidon/tests/data;
    fileset = ../poseidon/tests/data;
  };

  commonArgs = {
    inherit src;
    pname = "poseidon-lab";
    version = "0.1.0";
    strictDeps = true;
  };
  wasmArgs = commonArgs // {CARGO_BUILD_TARGET = "wasm32-wasip1";};
  # The test checks run the dev profile, as `make test` does, so that the
  # debug_assert! limb bounds are checked; crane's default profile is release.
  dev = {CARGO_PROFILE = "dev";};
  nativeArtifacts = craneLib.buildDepsOnly commonArgs;
  wasmArtifacts = craneLib.buildDepsOnly wasmArgs;
  nativeDevArtifacts = craneLib.buildDepsOnly (commonArgs // dev);
  wasmDevArtifacts = craneLib.buildDepsOnly (wasmArgs // dev);

  benchBinary = args: cargoArtifacts: suffix:
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon-bench";
        cargoExtraArgs = "--locked -p poseidon-benches --bench poseidon";
        doCheck = false;
        nativeBuildInputs = [jq];
        benchSuffix = suffix;
        installPhaseCommand = builtins.readFile ./install-bench.sh;
      });

  tool = args: cargoArtifacts:
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon";
        cargoExtraArgs = "--locked -p poseidon --bin poseidon";
        doCheck = false;
      });

  bench-native = benchBinary commonArgs nativeArtifacts "";
  bench-wasm = benchBinary wasmArgs wasmArtifacts ".wasm";
  poseidon = tool commonArgs nativeArtifacts;
  poseidon-wasm = tool wasmArgs wasmArtifacts;
  bench-report-tool = craneLib.buildPackage (commonArgs
    // {
      cargoArtifacts = nativeArtifacts;
      pname = "bench-report";
      cargoExtraArgs = "--locked -p poseidon-benches --bin bench-report";
      doCheck = false;
    });

  # The pinned tools and the variables of scripts/bench.sh (./bench-env.nix).
  bench = import ./bench-env.nix {
    inherit bash coreutils gnugrep gnused gawk wasmtime scripts bench-native bench-wasm bench-report-tool pins;
    nodejs = nodejs_24;
    nodes = [nodejs_22 nodejs_24];
    rustVersion = lib.getVersion rustToolchain;
  };

  # Both benchmarks inside the build sandbox (no network, cleared environment,
  # pinned tools). A new measurement is a new derivation: BENCH_NONCE (read only
  # with --impure) changes its hash, e.g.
  #   BENCH_NONCE=$(date +%s) nix build --impure .#bench-report
  # (`--rebuild` would only compare the new report with the old one and fail).
  bench-report = runCommand "poseidon-bench-report" (bench.env
    // {
      nativeBuildInputs = bench.inputs;
      nonce = builtins.getEnv "BENCH_NONCE";
      # A measurement, not a build product: never take it from a cache.
      allowSubstitutes = false;
      preferLocalBuild = true;
    }) (builtins.readFile ./bench-report.sh);
in {
  inherit src scripts vectors commonArgs wasmArgs nativeArtifacts wasmArtifacts;
  inherit nativeDevArtifacts wasmDevArtifacts dev;
  benchEnv = bench.env;
  benchInputs = bench.inputs;
  outputs = {
    inherit bench-native bench-wasm poseidon poseidon-wasm bench-report-tool bench-report;
    default = poseidon;
  };
}
