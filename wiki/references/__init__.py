"""Reading references: identifiers (arXiv, DOI, titles), locators, BibTeX, and the draft of a source they produce."""
