"""Running repository research: the pipeline, concurrent shard jobs, saved stage outputs, chunked sessions."""
