"""Reports about a compiled model: multiply-accumulate counts and the memory plan drawn as a picture."""
