"""What the apps share, below all of them: the domain errors (``core.errors``) and the
role checks (``core.permissions``). Imports no app of the project (``tests/test_layers.py``)."""
