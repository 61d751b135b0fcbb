"""The hosted class contest (``zerosum contest``): its store, submissions, sandbox, ladder and final.

See docs/contest.md."""
