!> Module tcgemm: Fortran interface to the tcgemm tensor-core GEMM library.
!>
!> Two ways in:
!>   * host arrays (start here): `call tcgemm_dgemm('N', 'N', m, n, k, alpha, a, lda, b, ldb,
!>     beta, c, ldc)` on ordinary real(real64) arrays, exactly like BLAS dgemm. The library copies
!>     A, B (and C when beta /= 0) to the GPU, multiplies, copies C back and synchronizes, on a
!>     stream of its own (calls from several threads overlap). Its device buffers come from a
!>     pool the library keeps per GPU, shared by all threads and trimmed to a retain limit after
!>     each call (tcgemm_release_workspace empties it). Every call still moves
!>     (m*k + k*n + m*n [+ m*n]) * 8 bytes over PCIe/NVLink, so this path pays off only when
!>     2*m*n*k flops dwarf that traffic. real(real32) host arrays go through `call tcgemm_sgemm(...,
!>     c, ldc, precision)`, computed in TF32, FP16 or BF16 on the tensor cores or exactly in FP32
!>     (TCGEMM_PRECISION_*), with the same argument rules.
!>   * device matrices: type(tcgemm_device_matrix) holds a device pointer plus its shape and
!>     leading dimension. tcgemm_device_allocate (rows/cols, `source=` or `mold=`), tcgemm_copy
!>     (host -> device, device -> host) and tcgemm_device_deallocate manage it; tcgemm_dgemm and
!>     one call per kernel family of the reference design (tcgemm_dmma_single ... _shared_ab) run
!>     on it, asynchronously on an optional CUDA stream (type(c_ptr); absent = default stream).
!>     type(tcgemm_device_matrix_r32) is its real(real32) counterpart, managed by the same
!>     generics (allocate, copy, deallocate, allocated, view), for `call tcgemm_sgemm(transa,
!>     transb, alpha, a_d, b_d, beta, c_d, precision [, stream, stat, errmsg])`. The two types do
!>     not mix: a real(real32) matrix in tcgemm_dgemm (or the reverse) does not compile.
!>   * batches of small products: `call tcgemm_dgemm_batched(...)` on rank-3 host arrays (one
!>     call, copies included), or on type(tcgemm_device_batch), `count` equally shaped device
!>     matrices `stride` elements apart, managed by the same generics (allocate, copy,
!>     deallocate, allocated), so that element matrices stay on the GPU across calls.
!>
!> Errors: every procedure takes optional `stat` and `errmsg`, as ALLOCATE does. On failure
!> `stat` receives the tcgemm status (TCGEMM_ERROR_*, > 0) and `errmsg` the library's message,
!> which names the argument and the rule it broke; with `stat` absent a failure ends the program
!> with ERROR STOP and that message. On success `stat` is 0 and `errmsg` is left unchanged.
!> `stat` may be default integer or int64 in every procedure, and so may the other integer
!> arguments (all of one kind within a call), so that a caller built with -fdefault-integer-8
!> finds a specific for each call: the generics have one per kind, and the int64-stat ones take
!> stat as a required argument, which keeps them distinguishable. An int64 argument the
!> library's 32-bit interface cannot hold (a tile size, a device number) is refused by name.
!>
!> Device memory is freed explicitly (tcgemm_device_deallocate), not by a final procedure:
!> a tcgemm_device_matrix is a plain value that may be copied (`b = a` copies the handle, not
!> the data), which a finalizer would turn into double frees; variables of the main program are
!> never finalized anyway; and freeing inside a finalizer at program end can run after the CUDA
!> context is gone. Deallocating a null (or zero-size) matrix is a no-op, so clean-up code may
!> call it unconditionally.
!>
!> The module is assembled from parts, one file each, that it uses and re-exports; only the
!> names listed below are public, whatever the parts make public to each other:
!>   tcgemm_c.f90               module tcgemm_c: the raw bind(C) layer (constants, structs)
!>   tcgemm_errors.f90          status and version strings, last error, stat/errmsg delivery
!>   tcgemm_device_matrices.f90 type(tcgemm_device_matrix): allocate, copy, deallocate; synchronize
!>   tcgemm_device_views.f90    tcgemm_device_view: a block of a device matrix, sharing its memory
!>   tcgemm_device_copy.inc     copies and source=/mold= for one host kind, included by
!>                              tcgemm_device_matrices (real64) and tcgemm_device_real32
!>   tcgemm_device_real32.f90   type(tcgemm_device_matrix_r32): the real(real32) device matrices,
!>                              added to the generics above (their names merge in this module)
!>   tcgemm_streams.f90         tcgemm_stream_create, _destroy, _synchronize
!>   tcgemm_host_operands.f90   what a host-array argument is (element, array; extent, contiguity)
!>   tcgemm_host_dgemm.f90      tcgemm_dgemm on host arrays (BLAS form), tcgemm_release_workspace
!>   tcgemm_host_sgemm.f90      tcgemm_sgemm on real(real32) host arrays in a chosen precision
!>   tcgemm_host_batched.f90    tcgemm_dgemm_batched: a batch of small DGEMMs on rank-3 host arrays
!>   tcgemm_device_batches.f90  type(tcgemm_device_batch): a batch of device matrices; allocate,
!>                              deallocate, allocated (added to the device matrices' generics)
!>   tcgemm_device_batch_copies.f90  tcgemm_copy between rank-3 host arrays and batches, and
!>                              allocation from source=/mold=
!>   tcgemm_device_batched.f90  tcgemm_dgemm_batched on device batches (one operand may be a
!>                              device matrix shared by every product)
!>   tcgemm_device_dgemm.f90    tcgemm_dgemm on device matrices, tcgemm_dgemm_config, device and
!>                              configuration queries
!>   tcgemm_device_sgemm.f90    tcgemm_sgemm on real(real32) device matrices in a chosen precision
!>   tcgemm_families.f90        tcgemm_dmma_*: one call per kernel family of the reference design
module tcgemm
  use tcgemm_c
  use tcgemm_errors
  use tcgemm_device_matrices
  use tcgemm_device_views
  use tcgemm_device_real32
  use tcgemm_streams
  use tcgemm_host_dgemm
  use tcgemm_host_sgemm
  use tcgemm_host_batched
  use tcgemm_device_batches
  use tcgemm_device_batch_copies
  use tcgemm_device_batched
  use tcgemm_device_dgemm
  use tcgemm_device_sgemm
  use tcgemm_families
  implicit none
  private

  ! ---- re-exported from tcgemm_c: constants and interoperable types --------------------------
  public :: TCGEMM_VERSION_MAJOR, TCGEMM_VERSION_MINOR, TCGEMM_VERSION_PATCH
  public :: TCGEMM_SUCCESS, TCGEMM_ERROR_INVALID_ARGUMENT, TCGEMM_ERROR_INVALID_CONFIG
  public :: TCGEMM_ERROR_NO_DEVICE, TCGEMM_ERROR_ARCHITECTURE, TCGEMM_ERROR_SHARED_MEMORY
  public :: TCGEMM_ERROR_CUDA, TCGEMM_ERROR_CONTEXT_LOST
  public :: TCGEMM_MAX_MATRIX_BYTES, TCGEMM_ARG_CONFIG
  public :: TCGEMM_FAMILY_AUTO, TCGEMM_FAMILY_SINGLE, TCGEMM_FAMILY_ROW
  public :: TCGEMM_FAMILY_WARP_PER_BLOCK, TCGEMM_FAMILY_BLOCK_TILE, TCGEMM_FAMILY_PEAK
  public :: TCGEMM_FAMILY_SHARED_A, TCGEMM_FAMILY_SHARED_AB, TCGEMM_FAMILY_SM90_MMA, TCGEMM_FAMILY_SKINNY
  public :: TCGEMM_PRECISION_TF32, TCGEMM_PRECISION_FP16, TCGEMM_PRECISION_BF16
  public :: TCGEMM_PRECISION_FP32
  public :: TCGEMM_DEVICE_NAME_LEN, TCGEMM_PLAN_SUMMARY_LEN
  public :: tcgemm_config, tcgemm_device_info, tcgemm_plan

  ! ---- from the parts listed above --------------------------------------------------------
  public :: tcgemm_device_matrix, tcgemm_device_matrix_r32, tcgemm_device_batch
  public :: tcgemm_status_string, tcgemm_last_error, tcgemm_last_error_argument
  public :: tcgemm_version_string
  public :: tcgemm_device_info_get, tcgemm_device_name
  public :: tcgemm_default_config, tcgemm_config_validate, tcgemm_config_shared_memory_bytes
  public :: tcgemm_config_threads_per_block, tcgemm_config_check_device
  public :: tcgemm_dgemm_select_config, tcgemm_dgemm_plan, tcgemm_plan_summary
  public :: tcgemm_device_allocate, tcgemm_device_deallocate, tcgemm_device_allocated
  public :: tcgemm_copy, tcgemm_synchronize, tcgemm_release_workspace
  public :: tcgemm_device_view
  public :: tcgemm_stream_create, tcgemm_stream_destroy, tcgemm_stream_synchronize
  public :: tcgemm_host_register, tcgemm_host_unregister
  public :: tcgemm_set_host_devices, tcgemm_get_host_devices
  public :: tcgemm_dgemm, tcgemm_dgemm_config, tcgemm_sgemm, tcgemm_dgemm_batched
  public :: tcgemm_dmma_single, tcgemm_dmma_row, tcgemm_dmma_warp_per_block
  public :: tcgemm_dmma_block_tile, tcgemm_dmma_peak, tcgemm_dmma_shared_a
  public :: tcgemm_dmma_shared_ab

  !> C <- alpha op(A) op(B) + beta C. (Assembled here: its forms live in two parts.)
  !>  * host arrays, BLAS argument list:
  !>      `call tcgemm_dgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc &
  !>                         [, stat, errmsg])`
  !>    Sizes all default integer or all int64 (a mix does not compile: "no specific subroutine
  !>    for the generic"). Each array may be an element (`a(i, j), lda`: the sub-matrix starting
  !>    there, as in BLAS), or a contiguous array of any rank; ranks may differ between a, b, c.
  !>    A non-contiguous section, or a call that would reach past the end of a whole array, is
  !>    an error naming the argument (nothing is copied). stat may be int64 as well.
  !>  * device matrices (m, n, k and leading dimensions taken from the matrices or views):
  !>      `call tcgemm_dgemm(transa, transb, alpha, a_d, b_d, beta, c_d [, stream, stat, errmsg])`
  interface tcgemm_dgemm
    module procedure dgemm_host_i32, dgemm_host_i64, dgemm_host_i32_stat64, dgemm_host_i64_stat64
    module procedure dgemm_device, dgemm_device_stat64
  end interface tcgemm_dgemm

  !> C <- alpha op(A) op(B) + beta C on real(real32) data, computed in `precision`
  !> (TCGEMM_PRECISION_TF32, _FP16, _BF16: the tensor cores with FP32 accumulation; _FP32: exact
  !> FP32 on the CUDA cores). The same two forms as tcgemm_dgemm, with the precision after C:
  !>  * host arrays: `call tcgemm_sgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c,
  !>                                   ldc, precision [, stat, errmsg])`
  !>  * device matrices (type(tcgemm_device_matrix_r32) or views of them):
  !>      `call tcgemm_sgemm(transa, transb, alpha, a_d, b_d, beta, c_d, precision &
  !>                         [, stream, stat, errmsg])`
  interface tcgemm_sgemm
    module procedure sgemm_host_i32, sgemm_host_i64, sgemm_host_i32_stat64, sgemm_host_i64_stat64
    module procedure sgemm_device, sgemm_device_stat64
  end interface tcgemm_sgemm

end module tcgemm
