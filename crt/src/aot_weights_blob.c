/* Validation of weights blobs (aot/weights_blob.h): the checks <prefix>_bind_weights runs before the model reads
 * its constants from a blob. */
#include "kernels/aot_sched.h"

#include "aot/weights_blob.h"

#include "aot/errors.h"

/* CRC-32 (reflected polynomial 0xEDB88320, initial and final value 0xFFFFFFFF, as zlib's crc32) four bits at a
 * time: 64 bytes of table instead of 1 KiB, about 20 instructions per byte, run once per bind. */
static uint32_t aot_crc32(const uint8_t* data, size_t size)
{
    static const uint32_t aot_crc32_nibble[16] = {
        0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
        0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu, 0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
    };
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    for (i = 0u; i < size; ++i) {
        crc ^= (uint32_t)data[i];
        crc = (crc >> 4) ^ aot_crc32_nibble[crc & 0x0Fu];
        crc = (crc >> 4) ^ aot_crc32_nibble[crc & 0x0Fu];
    }
    return crc ^ 0xFFFFFFFFu;
}

/* Header fields are read byte by byte: little-endian whatever the target, and no alignment assumed. */
static uint32_t aot_blob_u32(const uint8_t* p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

int32_t aot_weights_blob_check(const void* blob, size_t size, const uint8_t* arch_hash, uint32_t blob_size)
{
    const uint8_t* const b = (const uint8_t*)blob;
    uint32_t recorded;
    uint32_t i;
    /* The alignment (AOT_ERR_BLOB_ALIGN) is checked by the generated <prefix>_bind_weights, before this. */
    if ((blob == NULL) || (arch_hash == NULL)) {
        return AOT_ERR_NULL_ARG;
    }
    if (size < (size_t)AOT_WEIGHTS_BLOB_HEADER_SIZE) {
        return AOT_ERR_BLOB_TRUNCATED;
    }
    if (aot_blob_u32(b) != AOT_WEIGHTS_BLOB_MAGIC) {
        return AOT_ERR_BLOB_MAGIC;
    }
    if (aot_blob_u32(b + 4) != AOT_WEIGHTS_BLOB_VERSION) {
        return AOT_ERR_BLOB_VERSION;
    }
    for (i = 0u; i < AOT_WEIGHTS_BLOB_HASH_SIZE; ++i) {
        if (b[8u + i] != arch_hash[i]) {
            return AOT_ERR_BLOB_ARCH;
        }
    }
    recorded = aot_blob_u32(b + 24);
    if (recorded != blob_size) {
        /* Same architecture hash, other size: not a blob this compiler wrote for the model. */
        return AOT_ERR_BLOB_ARCH;
    }
    if (size < (size_t)recorded) {
        return AOT_ERR_BLOB_TRUNCATED;
    }
    if (aot_crc32(b + AOT_WEIGHTS_BLOB_HEADER_SIZE, (size_t)recorded - (size_t)AOT_WEIGHTS_BLOB_HEADER_SIZE) !=
        aot_blob_u32(b + 28)) {
        return AOT_ERR_BLOB_CRC;
    }
    return AOT_OK;
}
