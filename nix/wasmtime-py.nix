# Python with the PyPI package wasmtime, the release that `cargo xtask counts`
# (ensure_wasmtime_py, xtask/src/lab/tools.rs) installs (48.0.0), from its manylinux wheel (which carries libwasmtime), pinned by hash:
# scripts/wasm-count.py reads fuel and runs precompiled modules with it. The counts
# are x86_64-linux only (callgrind of x86 code), and so is this wheel.
{
  python3,
  fetchurl,
  autoPatchelfHook,
  stdenv,
}: let
  wasmtime = python3.pkgs.buildPythonPackage {
    pname = "wasmtime";
    version = "48.0.0";
    format = "wheel";
    src = fetchurl {
      url = "https://files.pythonhosted.org/packages/a2/92/e144fcf578fc394678c24b042efe45f3b0614acdb87ea95d8b839b208842/wasmtime-48.0.0-py3-none-manylinux1_x86_64.whl";
      hash = "sha256-WFRNU5BT3/e9TPMMQNelQIYtaDATwN+mukagY/W2gvc=";
    };
    nativeBuildInputs = [autoPatchelfHook];
    buildInputs = [stdenv.cc.cc.lib];
    # Importing it loads libwasmtime: a library autoPatchelf missed fails the build,
    # not a count run.
    pythonImportsCheck = ["wasmtime"];
  };
in
  python3.withPackages (_: [wasmtime])
