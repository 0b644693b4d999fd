"""The rule-set version, stamped on every result and every generated file.

Bump it whenever a rule's output changes; golden files under tests/golden/ change with it.
"""

RULES_VERSION = "2026.11.7"
