"""The core floor's helpers that every other floor may use: files in and out, user code loading."""
