# Two commands for a fresh machine (Python 3.11 + make):
#   make app    serve the explorer on http://127.0.0.1:8866/
#   make test   install everything and run every test (unit, notebooks, browser)
# While working, a third and faster loop:
#   make check  lint and type-check, then the unit tests and doctests (no browser, slow or
#               notebook tests; a tenth of the property-test examples)
.PHONY: app test check lint bench sync lock fuzz

export UV_PYTHON_DOWNLOADS := never
export BOKEH_RESOURCES := inline
UV := .tools/bin/uv
PORT ?= 8866

$(UV):
	python3 -m venv .tools
	.tools/bin/pip install --quiet uv

sync: $(UV)
	$(UV) sync --locked --all-extras --python python3

app: sync
	@echo "machina_nb explorer: http://127.0.0.1:$(PORT)/voila/render/explorer.ipynb"
	@echo "(the course notebooks it links to are served beside it)"
	JUPYTER_PATH=$(CURDIR)/share/jupyter $(UV) run --no-sync voila notebooks/ --no-browser \
	    --port=$(PORT) --Voila.ip=127.0.0.1

test: sync
	scripts/ensure-chromium
	$(UV) run --no-sync pytest

check: lint
	MACHINA_QUICK=1 $(UV) run --no-sync pytest -q -m "not browser and not slow" tests machina_nb

fuzz: sync
	MACHINA_FUZZ=$${MACHINA_FUZZ:-2000} $(UV) run --no-sync pytest -q \
	    tests/analysis/test_fuzz_situations.py --hypothesis-show-statistics

lint: sync
	$(UV) run --no-sync ruff check .
	$(UV) run --no-sync mypy

bench: sync
	$(UV) run --no-sync python -m benchmarks

lock: $(UV)
	$(UV) lock --python python3
