"""Test helpers shared across folders (``process_helpers``) are imported from this folder."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
