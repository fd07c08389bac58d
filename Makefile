# Every target installs what it needs on first use into .venv (no root needed).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LLUMC  := $(VENV)/bin/llumc
STAMP  := $(VENV)/.installed

.PHONY: help install demo test test-all bench bench-solvers bench-encode bench-schemes bench-frontend bench-export bench-memory bench-matrix bench-fp bench-wordbmc samples clean

# `make` alone lists the targets: the first rule is the default, and each target's `## ` line is its help.
help: ## list the targets with one line each
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  %-15s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

install: $(STAMP) ## create .venv and install llumc (editable) with test, bench and dist extras

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench,dist]'
	@# zig's C library for both targets (about a minute, once per machine): built now, a first
	@# check's time limit would cut it short (llumc.check.replay.prepare_native_builds); a
	@# target that does not build (another clang without its libraries) is a warning
	$(PY) -c 'import sys; from llumc.check.replay import prepare_native_builds as p; [print(f"make install: warning: {e}", file=sys.stderr) for e in p()]'
	touch $(STAMP)

# The main job on a shipped example: FALSE with a replayed counterexample (the paper's appendix).
# llumc check exits 10 for FALSE; the demo succeeds when the verdict is the expected one.
demo: $(STAMP) ## llumc check examples/appendix.c: FALSE with a replayed counterexample
	@$(LLUMC) check examples/appendix.c; rc=$$?; \
	if [ $$rc -ne 10 ]; then echo "make demo: expected FALSE (exit 10), got exit $$rc" >&2; exit 1; fi

# pytest exits 5 when it collected no test: that is a failure here, not a pass. On every core
# (pytest-xdist): the checks' engines leave cores idle while they encode, compile and replay,
# so two workers on two cores take about 19 min where one took 29 (2026-11-27); worksteal:
# a worker that runs out takes tests queued for the other, so no slow test ends the run alone.
# --durations=20: the slowest tests end the log, so CI shows where the suite's 20 minutes go.
# Tests marked slow (larger twins of tests that run here) are left out; `make test-all` runs them.
PYTEST := $(PY) -m pytest -q -n auto --dist worksteal --durations=20
test: $(STAMP) ## run the test suite (pytest) but the tests marked slow
	@$(PYTEST) -m "not slow"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

test-all: $(STAMP) ## run the whole test suite, the tests marked slow too
	@$(PYTEST); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test-all: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

# DimSpec files generated from the project's own C programs (symbol map in the comments);
# small-block (edge) scheme, plus the appendix in the paper's and the large-block scheme.
SAMPLE_SOURCES := $(wildcard examples/*.c) tests/programs/loop_count.c tests/programs/safe_loop.c \
	tests/programs/select_minmax.c tests/programs/switch_trunc.c
samples: $(STAMP) ## regenerate dimspec_samples/ from examples and test programs
	@mkdir -p dimspec_samples
	@for f in $(SAMPLE_SOURCES); do \
	  out=dimspec_samples/$$(basename $$f .c).dimspec; \
	  $(PY) -m llumc encode $$f --scheme edge -o $$out || exit 1; echo "wrote $$out"; \
	done
	$(PY) -m llumc encode tests/programs/overflow_check_idiom.c --property no-overflow --scheme edge \
	  -o dimspec_samples/overflow_check_idiom.no-overflow.dimspec
	$(PY) -m llumc encode examples/appendix.c --scheme paper -o dimspec_samples/appendix.paper-scheme.dimspec
	$(PY) -m llumc encode examples/appendix.c --scheme lbe -o dimspec_samples/appendix.lbe.dimspec

# Front-end coverage map: module vs. unsupported reason for each of LLUMC's 322 programs (ILP32,
# overflow checks for *no-overflow* files). Markdown table on stdout; -v lists every program.
# The 60 Problem07 (RERS) programs are 74k lines each and take minutes each: --exclude/--only
# REGEX split the run (e.g. FRONTEND_BENCH_ARGS='--jobs 2 --exclude ^Problem07'). With
# --to-dimspec it times clang to DimSpec per program instead (wall, CPU, stages, peak memory;
# one job for honest wall clocks): FRONTEND_BENCH_ARGS='--to-dimspec --jobs 1 --only ^Problem07'.
FRONTEND_BENCH_ROOT ?= ../shared/benchmarks/llumc-publications
FRONTEND_BENCH_ARGS ?= --jobs 2
bench-frontend: $(STAMP) ## front-end coverage map of LLUMC's set (FRONTEND_BENCH_ARGS)
	$(PY) -m llumc.bench.frontend_map $(FRONTEND_BENCH_ROOT) $(FRONTEND_BENCH_ARGS)

# Encoding size and time on the LLUMC paper's Table 2 programs, next to the paper's numbers.
bench-encode: $(STAMP) ## encoding sizes of the LLUMC paper's Table 2 programs
	$(PY) -m llumc.bench.encoding_size

# Small-block (edge) vs large-block (lbe) encoding: size, BMC and IC3 on a subset of LLUMC's set
# (21 programs, unreach-call, ILP32; 30 s per run, 2 jobs; worst case about 16 min).
SCHEMES_BENCH_TIMEOUT ?= 30
bench-schemes: $(STAMP) ## small- vs large-block encoding: size, BMC, IC3 on 21 programs
	$(PY) -m llumc.bench.schemes --timeout $(SCHEMES_BENCH_TIMEOUT) --jobs 2

# DimSpec toolkit: time per engine (BMC, IC3) per file of ../shared/dimspec and dimspec_samples/,
# then BMC on freecell by SAT solver and schedule. Markdown tables on stdout.
SOLVERS_BENCH_TIMEOUT ?= 60
# Then the six AIGER circuits with IC3 and BMC beside ABC's pdr (solvers/bench.py).
SOLVERS_AIGER_TIMEOUT ?= 300
bench-solvers: $(STAMP) ## BMC and IC3 per DimSpec file; IC3 and BMC beside ABC on six AIGER circuits
	$(PY) -m llumc.bench.solvers_bench --timeout $(SOLVERS_BENCH_TIMEOUT)
	$(PY) -m solvers.bench --timeout $(SOLVERS_AIGER_TIMEOUT)

# AIGER export against ABC's pdr on ten programs of LLUMC's set (ABC: Debian's berkeley-abc, not a
# dependency; without it that column says so), then llumc's k-induction on DimSpec and AIGER of
# every program of tests/programs. Markdown on stdout; exit 1 on a disagreement.
EXPORT_BENCH_TIMEOUT ?= 60
bench-export: $(STAMP) ## AIGER export beside ABC's pdr; k-induction on DimSpec and AIGER
	$(PY) -m llumc.bench.export_bench --timeout $(EXPORT_BENCH_TIMEOUT) --jobs 2

# Floating point: llumc's circuits beside z3's fpa2bv and Bitwuzla's symfpu lowering (sizes per
# operation) and SAT time on the float programs' queries (llumc + CaDiCaL, z3, Bitwuzla). z3 and
# Bitwuzla are installed into .venv here for the bench only: they are not llumc dependencies.
FP_BENCH_ARGS ?= --timeout 120
bench-fp: $(STAMP) ## circuit sizes and SAT times: llumc's float circuits, z3, Bitwuzla
	$(PY) -m pip install --quiet z3-solver==5.4.1.0 bitwuzla==0.10.0
	$(PY) -m llumc.bench.fp_libraries $(FP_BENCH_ARGS)

# The word-level BMC's queries (benchmarks/memory's deep bugs) solved by Boolector and by
# Bitwuzla, which is installed for this bench only (not a dependency of llumc).
bench-wordbmc: $(STAMP) ## word-level BMC queries: Boolector beside Bitwuzla
	$(PY) -m pip install --quiet bitwuzla==0.10.0
	$(PY) -m llumc.bench.wordbmc_solvers

# The full run: every task of LLUMC's own set (ILP32), 60 s each, 2 jobs; scores on stdout,
# bench-out/publications/results.tsv and cactus.png (published 600 s times drawn beside).
# Worst case (every task times out) about 361 tasks x 70 s / 2 jobs = 3.5 h.
BENCH_TASKS ?= ../shared/benchmarks/llumc-publications
BENCH_ARGS  ?= --32 --timeout 60 --jobs 2
bench: $(STAMP) ## llumc bench on LLUMC's set (BENCH_TASKS, BENCH_ARGS)
	$(LLUMC) bench $(BENCH_TASKS) $(BENCH_ARGS) --out bench-out/publications \
	  --reference $(BENCH_TASKS)/published-results/combined

# Arrays and heap: 31 programs of benchmarks/memory (modelled on sv-benchmarks' array and
# list folders; verdicts in the file names), 20 s each, ILP32; about 11 minutes at worst.
bench-memory: $(STAMP) ## llumc bench on benchmarks/memory (arrays, lists, heap), 20 s each
	$(LLUMC) bench benchmarks/memory --32 --timeout 20 --jobs 1 --out bench-out/memory
	@# llumc bench reads unreach-call and no-overflow tags; the valid-memsafety tasks one by one
	@for f in benchmarks/memory/*valid-memsafety.c; do \
	  echo "$$f: $$($(LLUMC) check $$f --32 --property valid-memsafety --timeout 20 | head -1)"; done

MATRIX_TIMEOUT ?= 20
bench-matrix: $(STAMP) ## llumc bench on benchmarks/matrix (10 patterns x 3 sizes, TRUE and FALSE)
	$(LLUMC) bench benchmarks/matrix --32 --timeout $(MATRIX_TIMEOUT) --jobs 1 --out bench-out/matrix

clean: ## remove .venv, caches and build output
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
