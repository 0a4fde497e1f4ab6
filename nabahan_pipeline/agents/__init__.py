"""Agents: the answer contract, the adapters behind one spec string (``registry``), and the
runner. Import each from its module: this package loads nothing itself."""
