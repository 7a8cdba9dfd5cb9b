"""Stage 3, facts: symbols, imports resolved into a dependency graph, entry points and importance."""
