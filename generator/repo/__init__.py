"""Repository research: clone → map → facts → plan (architect + normalize, focus) → pack → analyze → synthesize."""
