"""Stage 1, checkout: refuse unsafe sources, clone or fetch with a hardened git, and read history."""
