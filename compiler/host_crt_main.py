"""Entry point of `//compiler:host_crt`: compiles the CRT for the host into a static archive (hostbuild.main)."""

import sys

from compiler.hostbuild import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
