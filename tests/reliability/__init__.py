"""Reliability and security proofs: leaks, illegal actions, tokens, bad input, crashes, fuzzing."""
