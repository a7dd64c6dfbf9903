"""Tools for development and benchmarks (``manage.py generate_wiki``); nothing here serves a request."""
