"""Stage 9, synthesize: the repository-level summary and the records the page layer renders."""
