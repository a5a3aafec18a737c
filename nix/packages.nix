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
  wasmtime,
  nodejs,
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
  nativeArtifacts = craneLib.buildDepsOnly commonArgs;
  wasmArtifacts = craneLib.buildDepsOnly wasmArgs;

  # crane's default install skips bench binaries (cargo marks them as tests), so
  # pick the executable out of the JSON build log that crane keeps in $cargoBuildLog.
  benchBinary = args: cargoArtifacts: suffix:
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon-bench";
        cargoExtraArgs = "--locked -p poseidon-benches --bench poseidon";
        doCheck = false;
        nativeBuildInputs = [jq];
        installPhaseCommand = ''
          exe=$(jq -r 'select(.reason == "compiler-artifact" and .target.kind == ["bench"]
                       and .executable != null) | .executable' "$cargoBuildLog" | tail -n 1)
          test -n "$exe" || { echo "no bench executable in $cargoBuildLog" >&2; exit 1; }
          install -Dm755 "$exe" "$out/bin/poseidon-bench${suffix}"
        '';
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

  # What scripts/bench.sh needs to run prebuilt binaries instead of building them.
  benchEnv = {
    BENCH_NATIVE_BIN = "${bench-native}/bin/poseidon-bench";
    BENCH_WASM_BIN = "${bench-wasm}/bin/poseidon-bench.wasm";
    BENCH_REPORT_BIN = "${bench-report-tool}/bin/bench-report";
    # One Node runtime per LTS line (node22, node24), as users run them.
    BENCH_NODES = "${nodejs_22}/bin/node ${nodejs_24}/bin/node";
    BENCH_ENV = lib.concatStringsSep "\n" (
      ["rustc=rustc ${lib.getVersion rustToolchain} (rust-overlay)"]
      ++ lib.mapAttrsToList (k: v: "${k}=${v}") pins
    );
  };
  benchInputs = [wasmtime nodejs coreutils gnugrep gnused gawk];

  # Both benchmarks inside the build sandbox (no network, cleared environment,
  # pinned wasmtime). `nix build .#bench-report --rebuild` measures again.
  bench-report = runCommand "poseidon-bench-report" (benchEnv
    // {
      nativeBuildInputs = benchInputs;
      # A measurement, not a build product: never take it from a cache.
      allowSubstitutes = false;
      preferLocalBuild = true;
    }) ''
    export HOME=$TMPDIR CRITERION_HOME=$out/criterion BENCH_REPORT_DIR=$out
    BENCH_RUNTIMES="native wasmtime node" bash ${scripts}/bench.sh
  '';
in {
  inherit src scripts vectors commonArgs wasmArgs nativeArtifacts wasmArtifacts benchEnv benchInputs;
  outputs = {
    inherit bench-native bench-wasm poseidon poseidon-wasm bench-report-tool bench-report;
    default = poseidon;
  };
}
