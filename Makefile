# Task runner. Each target calls a script in scripts/, the same ones the Nix apps
# and CI run. `make help` lists the targets.

ARGS ?=
SETS := kimchi legacy
FIELDS := fp fq

.PHONY: help test bench bench-quick params report setup

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 14

test: ## Every check on both targets (fmt, clippy, tests native + wasmtime + node, tool checks)
	scripts/test.sh

bench: ## Benchmark natively, under wasmtime and under Node, print the table; criterion args in ARGS="…"
	scripts/bench.sh $(ARGS)

bench-quick: ## The same with criterion's --quick
	scripts/bench.sh --quick $(ARGS)

report: ## Print the table again from the saved baselines (no new measurement)
	cargo run -q --release -p poseidon-benches --bin bench-report -- native wasmtime node

setup: ## Install the wasm target and wasmtime if missing (what .ci/run does)
	scripts/setup.sh

params: ## Regenerate the constant tables from Mina's rule
	@for s in $(SETS); do for f in $(FIELDS); do \
	  echo "poseidon/src/params/tables/$${s}_$${f}.rs"; \
	  cargo run -q -p poseidon --example gen_params -- $$s $$f > poseidon/src/params/tables/$${s}_$${f}.rs || exit 1; \
	done; done
