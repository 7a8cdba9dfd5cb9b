"""deepkb: research repositories and topics, publish them as a MkDocs Material knowledge base."""

__version__ = "0.1.0"
