"""Editor forms: they validate and normalise, the services decide and write."""
