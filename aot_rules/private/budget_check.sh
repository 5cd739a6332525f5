#!/bin/sh
# aot_firmware's budget check (a firmware with flash_budget, ram_budget or region_budgets): the size report wrote
# the exceeded budgets to PROBLEMS, one paragraph each; with any, print them and fail the build, else touch OK.
# It is its own action, run outside the sandbox, so that Bazel's lines around a failure name this check (not the
# size report's tool) and carry no sandbox hints: the paragraphs are the whole story.
# usage: budget_check.sh PROBLEMS OK
if [ -s "$1" ]; then
  cat "$1" >&2
  exit 1
fi
: >"$2"
