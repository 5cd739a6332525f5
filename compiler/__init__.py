"""aot_rules ahead-of-time compiler: TFLite flatbuffers to prefix-mangled C99.

Pipeline: frontend (flatbuffer -> IR) -> passes (op checks, compile-time
quantization parameters, buffer aliasing) -> static memory planner -> C code
generation.  `python -m compiler --help` lists the command line tools.
"""

__version__ = "0.1.0"
