"""Stage 8, analyze: one shard's draft, from the model or the offline analyst, with checked citations."""
