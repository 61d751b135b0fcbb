"""The last step into a contest seat, run inside the bubblewrap sandbox before the submission's program.

``python -I -S jail.py NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM [ARGS...]``: it imports nothing but the
standard library (no ``site``: a few milliseconds), sets the seat's resource limits, gives up root when it
runs as root (bubblewrap's privileged mode: a fresh, random user id from 1,000,000,000 up, that owns no file
and no other process on the machine, no groups, no capabilities), and replaces itself with PROGRAM.

The limits are set here, inside the sandbox's own user and process namespaces, and not before bubblewrap,
because ``RLIMIT_NPROC`` counts the processes of one user *in one user namespace* (Linux 5.14 and later):
set outside, it would count the teacher's own processes too.  Root (user id 0 on the machine) is exempt from
``RLIMIT_NPROC``, hence the fresh user id.  Exit code 126 and one line on standard error when a limit or the
user id cannot be set (nothing of the submission runs then).
"""

from __future__ import annotations

import os
import resource
import sys

#: the first user id a seat may run as (in bubblewrap's privileged mode); the id is drawn at random above it
FIRST_UID = 1_000_000_000
CANNOT_JAIL = 126


def _limit(which: int, value: int) -> None:
    resource.setrlimit(which, (value, value))


def main(argv: list[str]) -> None:
    try:
        cut = argv.index("--")
        nproc, data_mb, cpu_s, fsize_mb, nofile = (int(x) for x in argv[:cut])
        program = argv[cut + 1:]
        if not program:
            raise ValueError("no program")
    except ValueError as exc:
        sys.stderr.write(f"jail: usage: NPROC DATA_MB CPU_S FSIZE_MB NOFILE -- PROGRAM [ARGS...] ({exc})\n")
        os._exit(CANNOT_JAIL)
    try:
        mib = 1 << 20
        _limit(resource.RLIMIT_CORE, 0)
        _limit(resource.RLIMIT_DATA, data_mb * mib)
        _limit(resource.RLIMIT_CPU, cpu_s)
        _limit(resource.RLIMIT_FSIZE, fsize_mb * mib)
        _limit(resource.RLIMIT_NOFILE, nofile)
        _limit(resource.RLIMIT_NPROC, nproc)
        if os.getuid() == 0:  # bubblewrap ran as root, without a user namespace: become nobody in particular
            uid = FIRST_UID + int.from_bytes(os.urandom(4), "big") % (1 << 30)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            if os.getuid() == 0 or os.geteuid() == 0:
                raise OSError("still root")
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"jail: the seat's limits cannot be set: {exc}\n")
        os._exit(CANNOT_JAIL)
    try:
        os.execv(program[0], program)
    except OSError as exc:
        sys.stderr.write(f"cannot start {program[0]!r}: {exc.strerror or exc}\n")
        os._exit(127)


if __name__ == "__main__":
    main(sys.argv[1:])
