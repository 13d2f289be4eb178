"""One module per benchmark; each defines ``command`` (a ``click.Command``), found by
``dominoproof bench``. Benchmarks run two things side by side and print ratios."""
