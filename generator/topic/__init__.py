"""Topic research: plan → dispatch → research/crawl → dedupe → aggregate → analyze → report → verify."""
