"""External engines by name: ``--engine NAME=COMMAND`` read and checked (:mod:`.names` registers them).

An :class:`EngineDefinition` is a name, a command (its words), a folder to run it in and options to set
(``setoption``) after the handshake: plain values that cross process boundaries and are stored with a run.
:func:`~zerosum.external.names.register_engine` makes the name an agent spec for
:func:`~zerosum.agents.registry.make_agent` in this process (``NAME``, or ``NAME:depth=6``, ``NAME:time=0.5``,
``NAME:nodes=N``: limits sent with each ``go``), as any other agent; the arena hands the definitions to its
worker processes with each game (:func:`~zerosum.external.names.definitions_for`), which register them there
too.

Command-line forms (one-line :class:`~zerosum.errors.UsageError` for anything malformed):

- ``--engine NAME=COMMAND``: COMMAND split into words as a POSIX shell would (quotes kept together), run
  without a shell;
- ``--engine-dir NAME=DIR``: the folder NAME runs in (default: the current one; either is kept with a run
  as an absolute path, so ``--resume`` from another folder runs it where it ran);
- ``--engine-option NAME.OPTION=VALUE``: ``setoption name OPTION value VALUE`` after the handshake (checked
  against the options the engine declares).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..errors import AgentError, UsageError
from ..spec import quoted
from .process import split_command

__all__ = ["EngineDefinition", "parse_engines", "engine_name", "MAX_ENGINES"]

#: the most ``--engine`` flags one command takes
MAX_ENGINES = 64
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_\-]{0,63}")
_OPTION = re.compile(r"[^\s=]{1,200}")


@dataclass(frozen=True)
class EngineDefinition:
    """An external engine: ``name`` (an agent spec), ``command`` (its words), ``folder`` (None: the current
    one) and ``options`` (``(name, value)`` pairs set after the handshake).

    Checked when built, so that a definition is one that can be registered, hashed, stored and run: lists (the
    command, the options and each pair) are taken as tuples, and anything else malformed is one AgentError line
    here, never a failure at its first use: a name that is no agent spec (a letter, then letters, digits, ``-`` or
    ``_``, at most 64), a command that is a string (the caller splits it: :func:`~.process.split_command`), empty,
    or not words, a folder that is not text, options that are not pairs of text."""

    name: str
    command: tuple[str, ...]
    folder: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        name, command = self.name, self.command
        if not isinstance(name, str) or not _NAME.fullmatch(name):
            raise AgentError(f"an engine's name is a letter, then letters, digits, - or _ (at most 64), not "
                             f"{quoted(name)}")
        if isinstance(command, str):
            raise AgentError(f"engine {name}: its command is its words (a tuple), not the string {quoted(command)}: "
                             "split it first (zerosum.external.process.split_command)")
        if not isinstance(command, (list, tuple)) or not all(isinstance(word, str) for word in command):
            raise AgentError(f"engine {name}: its command is a tuple of words (text), not {quoted(command)}")
        try:
            words = tuple(split_command(command))  # naming a program, without NUL
        except AgentError as exc:
            raise AgentError(f"engine {name}: {exc}") from None
        if self.folder is not None and (not isinstance(self.folder, str) or not self.folder or "\0" in self.folder):
            raise AgentError(f"engine {name}: its folder is a path or None, not {quoted(self.folder)}")
        pairs = self.options if isinstance(self.options, (list, tuple)) else None
        if pairs is None or not all(isinstance(pair, (list, tuple)) and len(pair) == 2
                                    and all(isinstance(text, str) for text in pair) for pair in pairs):
            raise AgentError(f"engine {name}: its options are (name, value) pairs of text, not {quoted(self.options)}")
        object.__setattr__(self, "command", words)
        object.__setattr__(self, "options", tuple((key, value) for key, value in pairs))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "command": list(self.command), "folder": self.folder,
                "options": [list(pair) for pair in self.options]}

    @classmethod
    def from_json(cls, data: Any) -> "EngineDefinition":
        """The definition stored as :meth:`to_json` wrote it; AgentError when it is not one."""
        try:
            if not isinstance(data, dict) or set(data) != {"name", "command", "folder", "options"}:
                raise TypeError
            name, words, folder = data["name"], data["command"], data["folder"]
            options = tuple((str(k), str(v)) for k, v in data["options"])
            if not (isinstance(name, str) and _NAME.fullmatch(name) and isinstance(words, list) and words
                    and all(isinstance(w, str) for w in words) and (folder is None or isinstance(folder, str))):
                raise TypeError
            return cls(name, tuple(words), folder, options)
        except (TypeError, ValueError, AgentError):
            raise AgentError(f"a stored engine definition is malformed: {quoted(str(data), 80)}") from None

    def flags(self) -> list[str]:
        """The command-line flags that define this engine again (``--engine NAME=COMMAND``, with
        ``--engine-dir`` and ``--engine-option`` where it has a folder or options)."""
        import shlex

        found = ["--engine", f"{self.name}={shlex.join(self.command)}"]
        if self.folder:
            found += ["--engine-dir", f"{self.name}={self.folder}"]
        for key, value in self.options:
            found += ["--engine-option", f"{self.name}.{key}={value}"]
        return found

    def files(self) -> list[str]:
        """The files of the person's own engine in its command: the program when named by a path (``./ceng``;
        one found on the PATH is the machine's), and each later word that names a file in its folder (a script:
        ``python3 eng.py``).  The arena keeps their SHA-256, so that a resumed run refuses a rebuilt engine."""
        import os

        def where(word: str) -> str:
            return word if os.path.isabs(word) or self.folder is None else os.path.join(self.folder, word)

        program, *rest = self.command
        found = [where(program)] if os.sep in program else []
        found += [where(word) for word in rest if not word.startswith("-")]
        return [os.path.abspath(path) for path in found if os.path.isfile(path)]

    def describe(self) -> str:
        """``NAME = COMMAND`` as a shell would read it (with its folder and options, when given)."""
        import shlex

        text = f"{self.name} = {shlex.join(self.command)}"
        if self.folder:
            text += f" (in {self.folder})"
        if self.options:
            text += " " + " ".join(f"{k}={v}" for k, v in self.options)
        return text


def engine_name(label: str) -> str:
    """``label`` (any text: how an :class:`~zerosum.external.Engine` is called) as an engine's name: every other
    character a ``-``, and an ``e`` before a first one that is no letter, at most 64 (``engine.exe``: ``engine-exe``)."""
    text = re.sub(r"[^A-Za-z0-9_\-]", "-", label)
    return (text if text[:1].isascii() and text[:1].isalpha() else "e" + text)[:64]


def _split(text: str, sep: str, flag: str, form: str) -> tuple[str, str]:
    name, found, rest = text.partition(sep)
    name = name.strip()
    if not found or not _NAME.fullmatch(name):
        raise UsageError(f"{flag} {quoted(text)}: expected {form} (NAME: a letter, then letters, digits, - or _, "
                         "at most 64)")
    return name, rest


def parse_engines(engines: Sequence[str], dirs: Sequence[str] = (), options: Sequence[str] = ()) -> list[EngineDefinition]:
    """The definitions of ``--engine NAME=COMMAND`` flags, with their ``--engine-dir NAME=DIR`` and
    ``--engine-option NAME.OPTION=VALUE`` (see the module docstring); one UsageError line for a malformed
    flag, a name given twice, a name that is an agent already, or a folder or option of no engine."""
    from ..agents.registry import agent_class

    if len(engines) > MAX_ENGINES:
        raise UsageError(f"at most {MAX_ENGINES} --engine flags, got {len(engines)}")
    commands: dict[str, tuple[str, ...]] = {}
    for text in engines:
        name, command = _split(text, "=", "--engine", "NAME=COMMAND")
        key = name.lower()
        if key in commands:
            raise UsageError(f"--engine {name} is given twice: each engine needs a name of its own")
        cls = agent_class(key)
        if cls is not None and getattr(cls, "DEFINITION", None) is None:  # an engine named before may be named again
            raise UsageError(f"--engine {name}: {name!r} is a zerosum agent already; give the engine another name")
        try:
            commands[key] = tuple(split_command(command))
        except AgentError as exc:
            raise UsageError(f"--engine {name}: {exc}") from None
    folders: dict[str, str] = {}
    for text in dirs:
        name, folder = _split(text, "=", "--engine-dir", "NAME=DIR")
        key = _known(name, commands, "--engine-dir")
        if not folder.strip():
            raise UsageError(f"--engine-dir {name}= names no folder")
        if key in folders:
            raise UsageError(f"--engine-dir {name} is given twice")
        if not os.path.isdir(folder):
            raise UsageError(f"--engine-dir {name}: folder {quoted(folder)} not found")
        folders[key] = os.path.abspath(folder)
    settings: dict[str, list[tuple[str, str]]] = {}
    for text in options:
        name, rest = _split(text, ".", "--engine-option", "NAME.OPTION=VALUE")
        key = _known(name, commands, "--engine-option")
        option, eq, value = rest.partition("=")
        if not eq or not _OPTION.fullmatch(option):
            raise UsageError(f"--engine-option {quoted(text)}: expected NAME.OPTION=VALUE")
        settings.setdefault(key, []).append((option, value.strip()))
    names = {n.partition("=")[0].strip().lower(): n.partition("=")[0].strip() for n in engines}
    here = os.path.abspath(os.curdir)  # kept with a run: --resume from another folder starts it in this one
    return [EngineDefinition(names[key], words, folders.get(key, here), tuple(settings.get(key, ())))
            for key, words in commands.items()]


def _known(name: str, commands: dict[str, Any], flag: str) -> str:
    key = name.lower()
    if key not in commands:
        raise UsageError(f"{flag} {name}: no --engine {name}=COMMAND names that engine")
    return key
