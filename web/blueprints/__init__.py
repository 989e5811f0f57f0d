"""One blueprint per dashboard area; each owns its page(s) and its /api/ routes."""
