/* The C entry points of the octoscope-cuda module (a MODULE library loaded with dlopen).
 * Plain C types only: the engine includes this header without any CUDA header, and a
 * machine without CUDA libraries, driver or GPU still starts — the loader just reports
 * why the module cannot be used. Every function returns 0 on success; on failure it
 * returns a nonzero code and writes a one-line reason into err (err_len bytes, always
 * NUL-terminated). */
#ifndef OCTO_CUDA_API_H
#define OCTO_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCTO_CUDA_API_VERSION 1

typedef struct OctoCudaDeviceInfo {
    char name[256];             /* e.g. "NVIDIA H200" */
    int compute_major;          /* compute capability, e.g. 9 */
    int compute_minor;          /* e.g. 0 */
    uint64_t total_memory;      /* bytes of device memory */
    uint64_t free_memory;       /* bytes free when asked */
} OctoCudaDeviceInfo;

/* OCTO_CUDA_API_VERSION of the module; the loader refuses a module of another version. */
int octo_cuda_api_version(void);

/* Number of usable CUDA devices. No driver or no GPU is an error with its reason. */
int octo_cuda_device_count(int* count, char* err, size_t err_len);

/* Properties of device `index` (0 <= index < count). */
int octo_cuda_device_info(int index, OctoCudaDeviceInfo* info, char* err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* OCTO_CUDA_API_H */
