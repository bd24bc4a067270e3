/* libtcgemm_pblas: ScaLAPACK's PDGEMM on tensor cores, for MPI programs.
 *
 * The library exports pdgemm_ (ScaLAPACK's Fortran name; INTEGER is 32-bit as in Debian's ScaLAPACK).
 * Link it before ScaLAPACK (-ltcgemm_pblas -lscalapack-openmpi) or preload it into an unmodified program
 * (LD_PRELOAD=libtcgemm_pblas.so mpirun ...): PDGEMM calls then run a panel schedule over MPI with each
 * rank's local product on its GPU (C kept on the GPU for the whole call), and every call the library does
 * not take goes to ScaLAPACK's own pdgemm_ (found with dlsym(RTLD_NEXT)), which also reports argument
 * errors through PXERBLA exactly as without this library.
 *
 * Environment:
 *   TCGEMM_PBLAS=auto|gpu|cpu|scalapack  auto (default): the GPU schedule when the rank has a CUDA device and
 *                       the product has at least TCGEMM_PBLAS_MIN_FLOPS (default 1e9) flops, else ScaLAPACK;
 *                       gpu: the GPU schedule whatever the size; cpu: the same schedule with the local
 *                       products in the program's BLAS (for testing without a GPU); scalapack: always
 *                       ScaLAPACK.
 *   TCGEMM_PBLAS_PANEL  width in k of each panel (default 2048).
 *   TCGEMM_PBLAS_VERBOSE=1  the first process of the grid prints the route of every call to stderr; =2
 *                       also every process its time split (packing, broadcasts, waits, GPU, C back).
 *   TCGEMM_DEVICE       the GPU of this rank; default: the rank's place among the grid's processes on its
 *                       node, modulo the node's GPUs.
 */
#ifndef TCGEMM_PBLAS_H
#define TCGEMM_PBLAS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ScaLAPACK's own PDGEMM (the one this library's pdgemm_ hands calls to), for comparisons. */
void tcgemm_pdgemm_scalapack(const char* transa, const char* transb, const int* m, const int* n, const int* k,
                             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
                             const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
                             double* c, const int* ic, const int* jc, const int* descc);
/* The route the calling thread's last pdgemm_ took: "gpu", "cpu" or "scalapack", with the reason after a
 * colon when the call went to ScaLAPACK (e.g. "scalapack: alpha = 0"). */
const char* tcgemm_pblas_last_route(void);
/* Frees the GPU and pinned host buffers kept between calls. */
void tcgemm_pblas_release_workspace(void);

#ifdef __cplusplus
}
#endif

#endif /* TCGEMM_PBLAS_H */
