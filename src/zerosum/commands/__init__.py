"""The ``zerosum`` command line's shared pieces (the subcommands themselves will gather here)."""
