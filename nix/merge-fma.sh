# shellcheck shell=bash
# packages.bench-fma's build: the generated FMA kernels merged into the fma
# build of the benchmark, as `xtask bench` merges them (fma-kernel --merge:
# binaryen's wasm-merge, then wasm-opt). The generator writes its steps' files
# beside the module it is given, so it gets a copy in the build directory (the
# store is read-only).
# shellcheck disable=SC2154 # fmaModule, binaryenBin and out are the derivation's
cp "$fmaModule" bench-fma.wasm
chmod u+w bench-fma.wasm
mkdir -p "$out/bin"
fma-kernel --merge bench-fma.wasm --binaryen "$binaryenBin" --out "$out/bin/poseidon-bench.wasm"
