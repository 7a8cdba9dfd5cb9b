"""The top floor under the CLI: resolve each target once, run its pipeline, publish it, and write its record."""
