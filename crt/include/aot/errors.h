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
/* Weights blobs (models compiled with weights = "blob", aot/weights_blob.h): */
/* <prefix>_run() was called while no valid blob is bound (none yet, or the last <prefix>_bind_weights failed). */
#define AOT_ERR_WEIGHTS_UNBOUND (-20)
/* The blob does not start at an address aligned to AOT_WEIGHTS_BLOB_ALIGN (16). */
#define AOT_ERR_BLOB_ALIGN (-21)
/* The blob is shorter than its header, or than the size its header records. */
#define AOT_ERR_BLOB_TRUNCATED (-22)
/* The blob does not start with the magic "AOTW": not a weights blob. */
#define AOT_ERR_BLOB_MAGIC (-23)
/* The blob has another format version than this runtime reads. */
#define AOT_ERR_BLOB_VERSION (-24)
/* The blob was made for another architecture (other ops, shapes, quantization layout or kernels). */
#define AOT_ERR_BLOB_ARCH (-25)
/* The payload's CRC-32 does not match the header's: the blob is corrupt. */
#define AOT_ERR_BLOB_CRC (-26)

#endif /* AOT_ERRORS_H_ */
