"""One module per CLI command; each defines ``command`` (a ``click.Command``).

``dominoproof.cli`` discovers the modules here, so adding a command is adding a
file. Modules import heavy dependencies (z3, networkx) inside the command body,
so ``dominoproof --help`` stays fast.
"""
