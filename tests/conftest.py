"""Test helpers shared across folders (``process_helpers``) are imported from this folder."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import signal

import pytest

# A test run started in the background of a non-interactive shell (`pytest &`, nohup) inherits SIGINT
# ignored, and so would every process a test starts, since an ignored signal survives exec: the tests of
# Ctrl-C would then see it ignored.  A handled signal is reset at exec, so the processes tests start get
# Python's own Ctrl-C handling, as they do under a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The workers (pytest-xdist, `-n 3` in pyproject.toml's addopts: the suite on two cores) see what one process
# would.  xdist sets COLUMNS and LINES in its workers (80 x 24), which zerosum's tables and headers honour:
# without them, as in a run of one process, they are laid out as for no terminal.  And the temporary folders
# get a short base (an xdist worker's adds ``popen-gwN``): tests whose paths appear in specs and tables (a spec
# is at most 100 characters) stay within bounds as in a run of one process.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)


def _compile_zerosum() -> None:
    """Byte-compile zerosum's modules once, before the workers start.  The tests start Python processes by the
    thousand (the command line, servers, engines, pool workers); where PYTHONDONTWRITEBYTECODE is set, as on
    these machines, a fresh checkout has no ``.pyc`` and each of them compiled every module it imports again:
    ``zerosum match random first --games 2`` took 1.11 s instead of 0.70 s."""
    import compileall

    import zerosum

    compileall.compile_dir(os.path.dirname(zerosum.__file__), quiet=2)


#: the file the controller writes once numba's cache is filled (:func:`_warm_kernels`), for its workers to wait on
WARMED = "ZEROSUM_TESTS_WARMED"


def _warm_kernels(config) -> None:
    """numba's cache filled while the workers start and collect (``warm_kernels.py``, its two parts side by side;
    the workers wait for it before their first test): on a fresh checkout each worker compiled what it first
    needed while the others compiled it too.  A part that fails (no numba) is left to the tests, which say why."""
    import subprocess
    import tempfile
    import threading

    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "warm_kernels.py")
    parts = [subprocess.Popen([sys.executable, script, part], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for part in ("solver", "search")]
    folder = config._zerosum_warm = tempfile.mkdtemp(prefix="zs-warm-")
    marker = os.environ[WARMED] = os.path.join(folder, "done")  # the workers, started next, inherit it

    from process_helpers import await_parts

    def done() -> None:
        await_parts(parts, lambda line: _say(config, line))
        open(marker, "w").close()

    threading.Thread(target=done, daemon=True).start()
    config._zerosum_warming = parts


def _say(config, line: str) -> None:
    """``line`` on the run's terminal (pytest's reporter; standard error without one), from any thread: said only
    while every worker waits for the cache, so no test's output is under way."""
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(line)
    else:
        print(line, file=sys.stderr, flush=True)


def pytest_configure(config):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # a worker: its controller compiled the modules and chose the temporary folders' base
    _compile_zerosum()
    if getattr(config.option, "numprocesses", None):
        _warm_kernels(config)
    if getattr(config.option, "basetemp", None):
        return  # given
    if getattr(config.option, "numprocesses", None):
        import tempfile

        config.option.basetemp = config._zerosum_basetemp = tempfile.mkdtemp(prefix="zs-")


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """A worker's tests begin once its controller has filled numba's cache (:func:`_warm_kernels`)."""
    import time

    marker = os.environ.get(WARMED)
    if marker and os.environ.get("PYTEST_XDIST_WORKER"):
        give_up = time.monotonic() + 600
        while not os.path.exists(marker) and time.monotonic() < give_up:
            time.sleep(0.1)


def pytest_runtest_setup(item):
    shared = sys.modules.get("chromium")  # the browser tests' shared Chromium (tests/chromium.py)
    if shared is not None and item.module is not None and not shared.wanted(item.module):
        shared.close_shared()  # its event loop would stand in the way of this module's own


def pytest_sessionfinish(session, exitstatus):
    if "chromium" in sys.modules:  # the browser tests' shared Chromium (tests/chromium.py)
        sys.modules["chromium"].close_shared()


def pytest_unconfigure(config):
    for part in getattr(config, "_zerosum_warming", []):  # a run that ended first (a collection error)
        if part.poll() is None:
            part.kill()
            part.wait()
    warm = getattr(config, "_zerosum_warm", None)
    if warm:
        import shutil

        shutil.rmtree(warm, ignore_errors=True)
    made = getattr(config, "_zerosum_basetemp", None)
    if made:  # the short base made above: removed with the run, as pytest's own are after a few runs
        import shutil

        shutil.rmtree(made, ignore_errors=True)
