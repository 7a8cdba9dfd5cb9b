"""Rendering the knowledge base into site_src, sanitizing it, building and publishing it with MkDocs."""
