"""Stage 2, map (the god view): every readable file with its size and language, and what was skipped."""
