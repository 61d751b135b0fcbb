"""Test helpers shared across folders (``process_helpers``) are imported from this folder."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import signal

# A test run started in the background of a non-interactive shell (`pytest &`, nohup) inherits SIGINT
# ignored, and so would every process a test starts, since an ignored signal survives exec: the tests of
# Ctrl-C would then see it ignored.  A handled signal is reset at exec, so the processes tests start get
# Python's own Ctrl-C handling, as they do under a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
