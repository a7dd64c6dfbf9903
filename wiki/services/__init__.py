"""Writes that touch several rows: keyword-only, typed, atomic."""
