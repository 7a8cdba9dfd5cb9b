"""The cross-topic knowledge index: synonyms and canonical tags, _index.json, full-text search."""
