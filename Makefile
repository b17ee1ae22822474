# robolab: one command per task. `make lab` and `make test` do all the set-up.
#
#   make lab     create .venv if needed, install robolab with JupyterLab, open the course index
#   make test    create/update .venv with the test extras, run ruff, mypy, unit tests, doctests,
#                notebooks (nbval) and the browser test
#   make test-portable  the unit tests and doctests again, shuffled, under another BLAS kernel
#   make bench   run the benchmarks and rewrite docs/benchmarks.md
#   make assignments  write chapters as nbgrader assignments (CHAPTERS="01 04", COURSE=dir)
#   make clean   remove .venv and build/test caches
#
# Both set-up targets are idempotent: the install step re-runs only when
# pyproject.toml or binder/requirements.txt changed (stamp files in .venv).

PYTHON      ?= python3
VENV        ?= .venv
BIN         := $(VENV)/bin
CONSTRAINTS := binder/requirements.txt
PIP         := $(BIN)/python -m pip --disable-pip-version-check
INSTALL     := $(PIP) install --quiet --constraint $(CONSTRAINTS)
LAB_PORT    ?= 8888
LAB_ARGS    ?=
PYTEST_ARGS ?=
# JupyterLab refuses to start as root unless told; CI and containers run as root.
ROOT_FLAG   := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: help lab test test-portable lint bench clean assignments

help:
	@sed -n '2,11p' Makefile | sed 's/^# \{0,1\}//'

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# After each install, tools/lab_overrides.py enables robolab's Jupyter server extension in the
# venv (an editable install does not install pyproject's data-files; a wheel, as on Binder, does).
SERVER_CONFIG := jupyter-config/jupyter_server_config.d/robolab.json
# A .venv made before the distribution was renamed robolab-edu holds the old `robolab`
# distribution of this checkout: removed first, so that one distribution provides `robolab`.
DROP_OLD_NAME := $(PIP) uninstall --quiet --yes robolab 2>/dev/null || true

$(VENV)/.installed-lab: pyproject.toml $(CONSTRAINTS) $(SERVER_CONFIG) | $(BIN)/python
	@$(DROP_OLD_NAME)
	$(INSTALL) --editable ".[lab]"
	$(BIN)/python tools/lab_overrides.py
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(CONSTRAINTS) $(SERVER_CONFIG) | $(BIN)/python
	@$(DROP_OLD_NAME)
	$(INSTALL) --editable ".[test]"
	$(BIN)/python tools/lab_overrides.py
	@touch $@ $(VENV)/.installed-lab

$(VENV)/.installed-bench: pyproject.toml $(CONSTRAINTS) $(SERVER_CONFIG) | $(BIN)/python
	@$(DROP_OLD_NAME)
	$(INSTALL) --editable ".[bench]"
	$(BIN)/python tools/lab_overrides.py
	@touch $@ $(VENV)/.installed-lab

# tools/lab_overrides.py: the venv's JupyterLab does not ask "official Jupyter news?" on its
# first start (as binder/postBuild does on Binder), and relays kernel messages without delay;
# run every time, since a venv made by an older Makefile may lack either.
# LAB_KERNEL_TRANSPORT: the server reaches its kernels over Unix sockets in Jupyter's runtime
# folder, which only this user can open, instead of loopback TCP ports, about which ipykernel 7
# logs "Kernel is running over TCP without encryption" at every kernel start (tcp on Windows).
LAB_KERNEL_TRANSPORT ?= $(if $(filter Windows_NT,$(OS)),tcp,ipc)
lab: $(VENV)/.installed-lab
	@$(BIN)/python tools/lab_overrides.py
	@token=$$($(BIN)/python -c "import secrets; print(secrets.token_hex(24))"); \
	echo "robolab course index: http://localhost:$(LAB_PORT)/lab/tree/notebooks/index.ipynb?token=$$token"; \
	echo "(stop JupyterLab with Ctrl-C; another port: make lab LAB_PORT=8890)"; \
	exec $(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --ServerApp.port=$(LAB_PORT) \
		--ServerApp.port_retries=0 --IdentityProvider.token=$$token \
		--KernelManager.transport=$(LAB_KERNEL_TRANSPORT) $(ROOT_FLAG) $(LAB_ARGS) \
		notebooks/index.ipynb

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# The numeric unit tests and doctests (not the notebooks, not the browser) once more, in a
# shuffled order (pytest-random-order prints its seed; rerun one with --random-order-seed=N)
# and under another OpenBLAS kernel, whose last bits differ from the default's: no test may
# depend on the order of the tests or on the last bit of a floating-point result. The tests that
# build a fresh environment (Binder's, the wheel's: marker fresh_environment) ran in `make test`.
PORTABLE_CORETYPE ?= Prescott
test-portable: $(VENV)/.installed-test
	OPENBLAS_CORETYPE=$(PORTABLE_CORETYPE) $(BIN)/python -m pytest tests robolab \
		--ignore=tests/browser -m "not fresh_environment" --random-order-bucket=global -q \
		$(PYTEST_ARGS)

bench: $(VENV)/.installed-bench
	$(BIN)/python benchmarks/run_all.py

# nbgrader source notebooks of the chosen chapters (all when CHAPTERS is empty), one
# assignment chNN per chapter, in COURSE/source/; then `nbgrader generate_assignment chNN`
# in COURSE (docs/teaching.md, "Grading with nbgrader"). ASSIGNMENT_ARGS: e.g. --same-numbers.
# Writing them needs only nbformat (a dependency of JupyterLab), not nbgrader or the test tools.
CHAPTERS        ?=
COURSE          ?= build/nbgrader
ASSIGNMENT_ARGS ?=
assignments: $(VENV)/.installed-lab
	$(BIN)/python -m robolab.lessons.assignments --course "$(COURSE)" $(ASSIGNMENT_ARGS) $(CHAPTERS)

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
