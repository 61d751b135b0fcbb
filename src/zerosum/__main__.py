"""``python -m zerosum``: the same as the ``zerosum`` command."""

from .cli import entry

entry()
