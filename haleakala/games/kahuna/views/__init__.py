"""Kahuna's views: what each front-end shows of it, on the toolkit's bases."""
