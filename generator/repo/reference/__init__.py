"""Reference facts of a repository: its configuration, its data model and its extension points."""
