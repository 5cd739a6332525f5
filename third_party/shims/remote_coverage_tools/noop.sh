#!/bin/sh
# Coverage merging is not offered offline; succeed so `bazel coverage` does not fail every test.
exit 0
