"""CLI subcommands: compile, run, info, testgen (one module each)."""
