"""The classifier is plain Python: its tests need neither Django nor a database."""
