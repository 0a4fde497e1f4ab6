"""The embedded reference agent: an Arabic question read into a frame (``parser``), one SELECT
built from it (``sql_builder``), its rows worded (``insights``); ``agent.ReferenceAgent``. Import a
name from its module: this face loads nothing, so that importing the lexicon does not import the
whole agent (1.3 s, measured with -X importtime)."""
