"""Tournaments: Swiss and round-robin events whose every pairing is an ordinary match.

The pure parts (``pairing``, ``standings``, ``render``) import nothing from Discord or the
store; ``service`` keeps everything in the store and is driven by the cog, the match
service's finish hook and the deadline scheduler.
"""
