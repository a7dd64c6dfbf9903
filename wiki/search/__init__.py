"""Full-text search over pages, claims, sources and open questions, for Chinese and English alike."""
