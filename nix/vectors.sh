# shellcheck shell=bash
# checks.poseidon-vectors: every backend, natively and under wasmtime, on the vector
# files. The sandbox's HOME cannot be created, so wasmtime runs without its
# compilation cache (-C cache=n), which it would otherwise create under $HOME.
# shellcheck disable=SC2154 # POSEIDON, POSEIDON_WASM, VECTORS and out are the derivation's
cd "$VECTORS" || exit
for backend in reference u29 u29x2 u64 u52; do
    "$POSEIDON" check --backend "$backend" kimchi.json legacy.json
    wasmtime run -C cache=n --dir=. "$POSEIDON_WASM" check --backend "$backend" kimchi.json legacy.json
done
touch "$out"
