"""Stage 7, pack: a shard's files as one line-numbered text for the model."""
