"""One module per CLI command; each defines ``command`` (a ``click.Command``).

``dominoproof.cli`` loads a command's module by its name when the command runs, so
adding a command is adding a file, and a command loads only what it imports.
"""
