# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run serve test install db browser check bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/.installed

# Migrates and loads the Agentic RL wiki (idempotent) into DATABASE_URL or, when it is unset, the embedded
# PostgreSQL that manage.py starts (config/embedded_db.py).
db: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py load_wiki
	$(BIN)/python manage.py render_pages

run: db
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production: gunicorn (config/gunicorn.conf.py), DEBUG off, static files hashed and cached for a year.
# Set DATABASE_URL, REDIS_URL and DJANGO_SECRET_KEY (with DJANGO_SECURE=1 behind HTTPS) as .env.example says.
serve: db
	WIKI_HASHED_STATIC=1 $(BIN)/python manage.py collectstatic --no-input --verbosity 0
	DJANGO_DEBUG=0 WIKI_HASHED_STATIC=1 HOST=$(HOST) PORT=$(PORT) $(BIN)/gunicorn -c config/gunicorn.conf.py config.wsgi

# Debian's Chromium (and CJK fonts for the screenshots), driven by Playwright in the end-to-end tests.
browser:
	@{ command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "noto sans cjk"; } || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; }

test: install browser
	$(BIN)/python manage.py makemigrations --check --dry-run
	DATABASE_URL="$${DATABASE_URL:-$$($(BIN)/python -m config.embedded_db)}" $(BIN)/pytest -q

check: install
	$(BIN)/mypy
	$(BIN)/python manage.py check

bench: install
	$(BIN)/python benchmarks/classify_bench.py

clean:
	rm -rf $(VENV) var/
