# `nix run .#bench-native`, `.#bench-wasm`, `.#bench-node`, `.#bench`: the prebuilt bench binaries run
# by the same task as `make bench` (`xtask bench`); `.#counts` (x86_64-linux): the count
# program run by `xtask counts` as `make counts`, to ./target/counts/counts.json. Extra arguments go to criterion
# (counts: an ID regex); results go to ./target/criterion (or $CRITERION_HOME), the table to ./target/bench-report.
# The wrapper's PATH starts with the pinned tools of its runtimes (packages.benchFor),
# and xtask adds nothing to PATH when it runs prebuilt binaries. Each app
# depends on what its runtimes run only: bench-native builds no wasm module, no Node.
{
  lib,
  writeShellApplication,
  packages,
}: let
  app = name: runtimes: description: let
    bench = packages.benchFor runtimes;
  in {
    type = "app";
    program = lib.getExe (writeShellApplication {
      inherit name;
      runtimeInputs = bench.inputs;
      runtimeEnv = bench.env;
      text = builtins.readFile ./app.sh;
    });
    meta = {inherit description;};
  };
  counts = {
    type = "app";
    program = lib.getExe (writeShellApplication {
      name = "counts";
      runtimeInputs = packages.countInputs;
      runtimeEnv = packages.countEnv // {APP_TASK = "counts";};
      text = builtins.readFile ./app.sh;
    });
    meta.description = "Count x86 instructions and Wasm operators per benchmark iteration (callgrind, wasmtime fuel); writes ./target/counts/counts.json";
  };
in
  rec {
    bench-native = app "bench-native" ["native"] "Run the Criterion benchmark natively (baseline `native`)";
    bench-wasm = app "bench-wasm" ["wasmtime" "wasmtime-wide"] "Run the Criterion benchmark as wasm32-wasip1 under the pinned wasmtime, and its wide-arithmetic build with -W wide-arithmetic=y (baselines `wasmtime`, `wasmtime-wide`)";
    bench-node = app "bench-node" ["node"] "Run the Criterion benchmark as wasm32-wasip1 under each pinned Node's node:wasi (baselines `node22`, `node24`)";
    bench = app "bench" packages.everyRuntime "Run the benchmark natively, under wasmtime (plain and with wide arithmetic) and under each pinned Node, then print the comparison and write report.json and report.svg";
    default = bench;
  }
  // lib.optionalAttrs packages.withCounts {inherit counts;}
