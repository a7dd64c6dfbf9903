"""Text algorithms with no database: side-by-side diffs, three-way merges, whitespace folding, claim matching."""
