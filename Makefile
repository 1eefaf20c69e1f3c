# make lab   - create .venv if missing, install the course, open JupyterLab on notebooks/
# make test  - create .venv if missing, run pytest over tests/ and nbval over notebooks/
PYTHON ?= $(shell scripts/find-python)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Tests and notebook runs use their own database file, never the learner's (and pytest refuses
# any other: tests/conftest.py).
TEST_DB := $(CURDIR)/.course/test.db
# Committed notebook outputs come from an offline run: no key reaches the tests or notebooks.
# A variable set empty here is final: a FALKORDB_URL or key in .env is not read.
OFFLINE := COURSE_DB=$(TEST_DB) COURSE_LLM=offline GEMINI_API_KEY= GROQ_API_KEY= MISTRAL_API_KEY= OPENROUTER_API_KEY= FALKORDB_URL=

.PHONY: lab test notebooks demo bench reset stop clean

$(STAMP): pyproject.toml requirements.lock
	@test -n "$(PYTHON)" || { echo "No Python 3.12+ found: see the message above." >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the course's pinned libraries into $(VENV) (about 600 MB the first time; a few minutes)..."
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -c requirements.lock -e ".[test]"
	@# matplotlib builds its font cache on first use; on a busy machine that takes long enough
	@# for a warning in the first notebook picture, so build it here, once.
	$(BIN)/python -c "import matplotlib.font_manager"
	@touch $(STAMP)

# JupyterLab refuses to run as root unless told; workshop containers often are root.
lab: $(STAMP)
	$(BIN)/python -m course load
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# The notebooks run under nbval, loaded here only (pyproject.toml's addopts keep it out of the
# quick loop, where its import costs seconds a process).
NBVAL := -p nbval --nbval --nbval-current-env --nbval-cell-timeout=300

# One worker per core (pytest-xdist); each worker has its own databases (notebooks/conftest.py).
test: $(STAMP)
	$(OFFLINE) $(BIN)/python -m pytest -n auto $(NBVAL); status=$$?; \
	$(OFFLINE) $(BIN)/python -m course stop >/dev/null; exit $$status

# Re-run every notebook offline and save its outputs (what nbval then checks).
notebooks: $(STAMP)
	cd notebooks && for nb in [0-9]*.ipynb; do \
	  $(OFFLINE) ../$(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; \
	done; $(OFFLINE) ../$(BIN)/python -m course stop >/dev/null

demo: $(STAMP)
	$(BIN)/python -m course demo

bench: $(STAMP)
	for b in bench/bench_*.py; do COURSE_DB=$(TEST_DB) $(BIN)/python $$b || exit 1; done

# Forget the graph and reload it from data/college/.
reset: $(STAMP)
	$(BIN)/python -m course load --reset

stop: $(STAMP)
	$(BIN)/python -m course stop

clean:
	-$(BIN)/python -m course stop 2>/dev/null
	rm -rf $(VENV) .course
