"""Stages 4–6, plan: the architect's shards, the seed's normalization rules, and focus for a request."""
