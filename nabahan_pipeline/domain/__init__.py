"""The domain: the embedded procurement database, Arabic text normalization, the reference agent."""
