/* Weights blobs: a model compiled with weights = "blob" reads its constants from a blob bound at run time
 * (<prefix>_bind_weights), so new weights of the same architecture can be installed without relinking.
 *
 * Layout (all fields little-endian, the payload in the byte order of the target):
 *   offset  0  uint32  magic, AOT_WEIGHTS_BLOB_MAGIC ("AOTW")
 *   offset  4  uint32  format version, AOT_WEIGHTS_BLOB_VERSION
 *   offset  8  16 B    architecture hash: the model's generated code (ops, shapes, kernels, offsets) hashed
 *   offset 24  uint32  total blob size in bytes (header included)
 *   offset 28  uint32  CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, as zlib's crc32) of the payload
 *   offset 32  payload: the arrays the kernels read, each at the offset the generated code uses
 * The blob must start at an address aligned to AOT_WEIGHTS_BLOB_ALIGN. */
#ifndef AOT_WEIGHTS_BLOB_H_
#define AOT_WEIGHTS_BLOB_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AOT_WEIGHTS_BLOB_MAGIC       0x57544F41u
#define AOT_WEIGHTS_BLOB_VERSION     1u
#define AOT_WEIGHTS_BLOB_HEADER_SIZE 32u
#define AOT_WEIGHTS_BLOB_HASH_SIZE   16u
#define AOT_WEIGHTS_BLOB_ALIGN       16u

/* Checks `blob` (`size` bytes) against a model's architecture hash and blob size; returns AOT_OK or the first
 * failing check's AOT_ERR_BLOB_* code (aot/errors.h), in this order: NULL pointer, shorter than the header, magic,
 * format version, architecture, truncated (shorter than its recorded size), CRC.  The caller (the generated
 * <prefix>_bind_weights) has checked the alignment, AOT_ERR_BLOB_ALIGN, first. */
int32_t aot_weights_blob_check(const void* blob, size_t size, const uint8_t* arch_hash, uint32_t blob_size);

#ifdef __cplusplus
}
#endif

#endif /* AOT_WEIGHTS_BLOB_H_ */
