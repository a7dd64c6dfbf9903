# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test` runs the tests side by side, one process a core, each with its own test database; TEST_WORKERS=0 runs
# them in one process.
TEST_WORKERS ?= auto

.PHONY: run serve test install messages db port browser redis check bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# The interface's translations (locale/*/LC_MESSAGES/django.po) compiled to .mo files, again whenever one changes.
# manage.py's compilemessages is the wiki's own, on Babel: no GNU gettext needed, and no database is opened.
PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)

$(MO_FILES) &: $(PO_FILES) $(BIN)/.installed
	DATABASE_URL="$${DATABASE_URL:-postgres://localhost/unused}" $(BIN)/python manage.py compilemessages --verbosity 0

messages: $(MO_FILES)

install: $(BIN)/.installed messages

# Migrates, loads the Agentic RL wiki (idempotent) and renders its pages into DATABASE_URL or, when it is unset, the
# embedded PostgreSQL that manage.py starts (config/embedded_db.py); servers starting at once on one database take
# turns (an advisory lock).
db: install
	$(BIN)/python manage.py prepare_wiki

# Refuses at once, before minutes of setting up, when something already listens on HOST:PORT.
port:
	@$(PYTHON) -c 'import socket, sys; s = socket.socket(); \
	  sys.exit(0) if s.connect_ex(("$(HOST)", $(PORT))) else sys.exit("$(HOST):$(PORT) is already in use: stop what serves there, or choose another port (make run PORT=8001)")'

run: port db
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

# Production: gunicorn (config/gunicorn.conf.py), DEBUG off, static files hashed and cached for a year.
# Set DATABASE_URL, REDIS_URL and DJANGO_SECRET_KEY (with DJANGO_SECURE=1 behind HTTPS) as .env.example says: without a
# key of its own, gunicorn refuses to start.
serve: port db
	WIKI_HASHED_STATIC=1 $(BIN)/python manage.py collectstatic --no-input --verbosity 0
	DJANGO_DEBUG=0 WIKI_HASHED_STATIC=1 HOST=$(HOST) PORT=$(PORT) $(BIN)/gunicorn -c config/gunicorn.conf.py config.wsgi

# Debian's Chromium (and CJK fonts for the screenshots), driven by Playwright in the end-to-end tests.
browser:
	@{ command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi "noto sans cjk"; } || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; }

# Redis on 127.0.0.1:6379 (Debian's), for the tests that run two app servers sharing one cache.
redis:
	@redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 || { \
	  command -v redis-server >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; }; \
	  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null; \
	  for i in 1 2 3 4 5 6 7 8 9 10; do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 1; done; }

test: install browser redis
	$(BIN)/python manage.py makemigrations --check --dry-run
	DATABASE_URL="$${DATABASE_URL:-$$($(BIN)/python -m config.embedded_db)}" $(BIN)/pytest -q -n $(TEST_WORKERS)

check: install
	$(BIN)/ruff check .
	DATABASE_URL="$${DATABASE_URL:-postgres://localhost/unused}" $(BIN)/mypy
	$(BIN)/python manage.py check

bench: install
	$(BIN)/python benchmarks/classify_bench.py

clean:
	rm -rf $(VENV) var/
