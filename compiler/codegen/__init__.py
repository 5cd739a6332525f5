"""C99 code generation: header, runner, weights and JSON manifest."""
