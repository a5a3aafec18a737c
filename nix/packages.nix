# The workspace built with crane for the host and for wasm32-wasip1: the bench
# binaries, the `poseidon` tool, the report tool, the hermetic bench report, and
# (x86_64-linux) the count program with the counts computed in the sandbox.
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
  writeShellScript,
  binaryen,
  coreutils,
  gnugrep,
  gnused,
  gawk,
  valgrind,
  # Python with the pinned wasmtime package (./wasmtime-py.nix); null where the
  # counts do not exist (they count x86 code: x86_64-linux only).
  countPython,
}: let
  root = ../.;
  # Cargo sources plus what the sources include_str!: the JSON test vectors and
  # reports, the flake files whose pins a test checks, the backends' design (their
  # rustdoc) and the README (its example is a doc test). xtask/tests/nix_sources.rs
  # checks that every include_str! is listed here.
  src = lib.fileset.toSource {
    inherit root;
    fileset = lib.fileset.unions [
      (craneLib.fileset.commonCargoSources root)
      (lib.fileset.fileFilter (file: file.hasExt "json") ../poseidon/tests/data)
      (lib.fileset.fileFilter (file: file.hasExt "json") ../bench/tests/data)
      ../flake.nix
      ../flake.lock
      ../poseidon/docs/backends.md
      ../README.md
    ];
  };
  # The processes of their own that the apps run: the Node WASI shim, the Wasm count runner.
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
  # Every derivation has a name of its own (crane appends -deps, -test, -clippy…),
  # so that `nix flake check -L` and `nix log` tell native, wasm and dev apart.
  wasmArgs =
    commonArgs
    // {
      pname = "poseidon-lab-wasm";
      CARGO_BUILD_TARGET = "wasm32-wasip1";
    };
  # The test checks run the dev profile, as `make test` does, so that the
  # debug_assert! limb bounds are checked; crane's default profile is release.
  dev = args:
    args
    // {
      pname = "${args.pname}-dev";
      CARGO_PROFILE = "dev";
    };
  # The wide-arithmetic module of runtime wasmtime-wide, built as `xtask bench`
  # builds it (xtask/src/lab/build.rs, WIDE_ENV: `cargo xtask nix-sandbox` compares
  # the two): crate poseidon alone with +wide-arithmetic, through
  # scripts/rustc-wide.sh as cargo's RUSTC_WRAPPER (a script of the store, since
  # the sandbox has no /usr/bin/env for its own first line), and no LTO.
  wideArgs =
    wasmArgs
    // {
      pname = "poseidon-lab-wide";
      RUSTC_WRAPPER = writeShellScript "rustc-wide" (builtins.readFile ../scripts/rustc-wide.sh);
      CARGO_PROFILE_BENCH_LTO = "false";
      CARGO_PROFILE_RELEASE_LTO = "false";
      CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS = "-C target-feature=+simd128 --cfg poseidon_wide";
    };
  # The fma build of the `fma` rows (the JavaScript package's FMA kernels, our
  # fastest in V8): relaxed SIMD and the package's backend, as `xtask bench`
  # builds it (FMA_ENV there too).
  fmaArgs =
    wasmArgs
    // {
      pname = "poseidon-lab-fma";
      CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS = "-C target-feature=+simd128,+relaxed-simd --cfg poseidon_fma";
    };
  nativeArtifacts = craneLib.buildDepsOnly commonArgs;
  wasmArtifacts = craneLib.buildDepsOnly wasmArgs;
  wideArtifacts = craneLib.buildDepsOnly wideArgs;
  fmaArtifacts = craneLib.buildDepsOnly fmaArgs;
  nativeDevArtifacts = craneLib.buildDepsOnly (dev commonArgs);
  wasmDevArtifacts = craneLib.buildDepsOnly (dev wasmArgs);

  # suffix: "" or "-wasm" (the pname); the wasm module is installed as NAME.wasm.
  benchBinary = args: cargoArtifacts: suffix: let
    ext =
      if suffix == ""
      then ""
      else ".wasm";
  in
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon-bench${suffix}";
        cargoExtraArgs = "--locked -p poseidon-benches --bench poseidon";
        doCheck = false;
        nativeBuildInputs = [jq];
        artifactKind = "bench";
        installName = "poseidon-bench${ext}";
        installPhaseCommand = builtins.readFile ./install-artifact.sh;
      });

  # The count program (bench/examples/count.rs), installed as bin/count[.wasm].
  countProgram = args: cargoArtifacts: suffix: let
    ext =
      if suffix == ""
      then ""
      else ".wasm";
  in
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon-count${suffix}";
        cargoExtraArgs = "--locked -p poseidon-benches --example count";
        doCheck = false;
        nativeBuildInputs = [jq];
        artifactKind = "example";
        installName = "count${ext}";
        installPhaseCommand = builtins.readFile ./install-artifact.sh;
      });

  tool = args: cargoArtifacts: suffix:
    craneLib.buildPackage (args
      // {
        inherit cargoArtifacts;
        pname = "poseidon${suffix}";
        cargoExtraArgs = "--locked -p kimchi-poseidon --bin poseidon";
        doCheck = false;
      });

  bench-native = benchBinary commonArgs nativeArtifacts "";
  bench-wasm = benchBinary wasmArgs wasmArtifacts "-wasm";
  bench-wide = benchBinary wideArgs wideArtifacts "-wide";
  # The fma module: its build, then the kernels merged in by their generator.
  bench-fma-unmerged = benchBinary fmaArgs fmaArtifacts "-fma-unmerged";
  fma-kernel = craneLib.buildPackage (commonArgs
    // {
      cargoArtifacts = nativeArtifacts;
      pname = "poseidon-fma-kernel";
      cargoExtraArgs = "--locked -p poseidon-fma-kernel --bin fma-kernel";
      doCheck = false;
    });
  bench-fma = runCommand "poseidon-bench-fma" {
    nativeBuildInputs = [fma-kernel];
    fmaModule = "${bench-fma-unmerged}/bin/poseidon-bench.wasm";
    binaryenBin = "${binaryen}/bin";
  } (builtins.readFile ./merge-fma.sh);
  count-native = countProgram commonArgs nativeArtifacts "";
  count-wasm = countProgram wasmArgs wasmArtifacts "-wasm";
  poseidon = tool commonArgs nativeArtifacts "";
  poseidon-wasm = tool wasmArgs wasmArtifacts "-wasm";
  # The orchestrator (`cargo xtask`): the apps and the hermetic runs call its tasks.
  xtask = craneLib.buildPackage (commonArgs
    // {
      cargoArtifacts = nativeArtifacts;
      pname = "xtask";
      cargoExtraArgs = "--locked -p xtask --bin xtask";
      doCheck = false;
    });
  bench-report-tool = craneLib.buildPackage (commonArgs
    // {
      cargoArtifacts = nativeArtifacts;
      pname = "bench-report";
      cargoExtraArgs = "--locked -p poseidon-benches --bin bench-report";
      doCheck = false;
    });

  # The pinned tools and the variables of `xtask bench` for some runtimes
  # (./bench-env.nix): an app gets only what its runtimes run.
  benchFor = runtimes:
    import ./bench-env.nix {
      inherit xtask bash coreutils gnugrep gnused gawk wasmtime scripts bench-native bench-wasm bench-wide bench-fma bench-report-tool pins runtimes;
      nodejs = nodejs_24;
      nodes = [nodejs_22 nodejs_24];
      rustVersion = lib.getVersion rustToolchain;
    };
  # Every runtime the flake pins: the apps' `bench` and the hermetic report run them all.
  everyRuntime = ["native" "wasmtime" "wasmtime-wide" "node"];
  bench = benchFor everyRuntime;

  # The benchmark on every pinned runtime inside the build sandbox (no network, cleared environment,
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

  # `xtask counts` with prebuilt programs: the pinned valgrind and wasmtime
  # package; the key's rustc is the toolchain's own --version, the source hash is
  # of the same files as in a checkout. BENCH_SCRIPTS: wasm-count.py's directory.
  countInputs = [xtask bash valgrind countPython coreutils gnugrep gnused gawk];
  countEnv = {
    BENCH_SCRIPTS = "${scripts}";
    COUNT_NATIVE_BIN = "${count-native}/bin/count";
    COUNT_WASM_BIN = "${count-wasm}/bin/count.wasm";
    COUNT_PYTHON = "${countPython}/bin/python3";
    COUNT_RUSTC = "${rustToolchain}/bin/rustc";
    COUNT_ROOT = "${src}";
    COUNT_KEY = "profile=release\nrustflags=\nwasm_rustflags=.cargo/config.toml";
  };
  # Every count, computed in the sandbox (about 10 minutes); like bench-report, a
  # measurement: BENCH_NONCE makes a new one. countFilter picks IDs (a regex).
  counts = runCommand "poseidon-counts" (countEnv
    // {
      nativeBuildInputs = countInputs;
      countFilter = ".";
      nonce = builtins.getEnv "BENCH_NONCE";
      allowSubstitutes = false;
      preferLocalBuild = true;
    }) (builtins.readFile ./counts.sh);
  withCounts = countPython != null;
in {
  inherit src scripts vectors commonArgs wasmArgs fmaArgs nativeArtifacts wasmArtifacts;
  inherit countInputs countEnv countPython withCounts benchFor everyRuntime;
  inherit nativeDevArtifacts wasmDevArtifacts dev;
  outputs =
    {
      inherit bench-native bench-wasm bench-wide bench-fma poseidon poseidon-wasm bench-report-tool bench-report xtask;
      default = poseidon;
    }
    // lib.optionalAttrs withCounts {inherit count-native count-wasm counts;};
}
