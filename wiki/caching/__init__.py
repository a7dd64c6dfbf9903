"""Caching of what only changes on a write: a wiki-wide content version, reader responses and fragments.

Every cached entry is keyed by the content version, kept in PostgreSQL. Any write to a ``wiki_`` table bumps it when
its transaction commits, so no reader sees a page older than the last write, on this worker or on any other server
sharing the cache; a server that could not tell the others through Redis is heard within
``WIKI_VERSION_CHECK_SECONDS`` (:mod:`wiki.caching.versions`).
"""
