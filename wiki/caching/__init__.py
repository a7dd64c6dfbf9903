"""Caching of what only changes on a write: a wiki-wide content version, reader responses and fragments.

Every cached entry is keyed by the content version. Any write to a ``wiki_`` table bumps it (in the
same transaction, and again when that transaction commits), so no reader sees a page older than
the last write, on this worker or on any other server sharing the cache.
"""
