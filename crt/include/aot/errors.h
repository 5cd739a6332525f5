/* Status codes returned by generated <prefix>_run() functions and CRT helpers.
 *
 * Zero means success; every error is a distinct negative value so callers can
 * test `rc < 0` and still tell causes apart.
 */
#ifndef AOT_ERRORS_H_
#define AOT_ERRORS_H_

#define AOT_OK 0
/* A required pointer argument (inputs, outputs, workspace or a tensor buffer) was NULL. */
#define AOT_ERR_NULL_ARG (-1)
/* The workspace pointer does not satisfy <PREFIX>_WORKSPACE_ALIGN. */
#define AOT_ERR_WORKSPACE_ALIGN (-2)
/* A kernel detected an impossible condition at run time (e.g. empty pooling window). */
#define AOT_ERR_KERNEL (-3)
/* The state pointer of a stateful model does not satisfy <PREFIX>_STATE_ALIGN. */
#define AOT_ERR_STATE_ALIGN (-4)
/* <prefix>_run() of a model with user-kernel init hooks was called before <prefix>_init() succeeded. */
#define AOT_ERR_NOT_INITIALIZED (-5)

#endif /* AOT_ERRORS_H_ */
