"""Search providers: one module each behind `SearchProvider`, selected by name from a registry."""
