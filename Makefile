# Every target installs what it needs on first use into .venv (no root needed).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LLUMC  := $(VENV)/bin/llumc
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench bench-solvers samples clean

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

# The main job on a shipped example.
demo: $(STAMP)
	$(LLUMC) ir examples/appendix.c

# pytest exits 5 when it collected no test: that is a failure here, not a pass.
test: $(STAMP)
	@$(PY) -m pytest -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
