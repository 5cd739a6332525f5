"""`analysis_failure_test`: passes iff analysing `target` fails with a message containing every one of `expect`.

Bazel's own mechanism (what skylib's analysistest(expect_failure = True) wraps): an analysis-test rule whose
dependency is configured with --allow_analysis_failures, so the failure becomes an AnalysisFailureInfo provider
instead of an error. Works on Bazel 4.2.3 without skylib.
"""

_allow_failures = analysis_test_transition(settings = {"//command_line_option:allow_analysis_failures": "True"})

def _impl(ctx):
    target = ctx.attr.target[0]
    problems = []
    if AnalysisFailureInfo not in target:
        problems.append("%s was analysed without an error" % target.label)
    else:
        messages = "\n".join([c.message for c in target[AnalysisFailureInfo].causes.to_list()])
        problems += ["the error does not say '%s':\n%s" % (e, messages) for e in ctx.attr.expect if e not in messages]
    return [AnalysisTestResultInfo(success = not problems, message = "\n".join(problems))]

analysis_failure_test = rule(
    implementation = _impl,
    analysis_test = True,
    doc = "Passes iff analysing `target` fails with every string of `expect` in the error.",
    attrs = {
        "target": attr.label(mandatory = True, cfg = _allow_failures, doc = "A target whose analysis must fail."),
        "expect": attr.string_list(doc = "Substrings the error message must contain."),
    },
)
