"""The REST API under ``/api/v1/``: read for everyone, write for editors (session or token)."""
