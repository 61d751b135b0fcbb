"""Hostile: a segmentation fault through ctypes in a move."""
import ctypes


def player(board):
    return ctypes.string_at(0)
